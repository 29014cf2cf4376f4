/**
 * The station's door (docs/architecture.md#the-station-model): seats and their operators, the mode, racks at the
 * station, stock adjustments, and the station's state as the screen shows it. Use cases take their
 * dependencies, their input and the caller's transaction (services/unit-of-work/unit-of-work.ts). Callers import
 * this module only.
 */
export { login, logout, presentRack, removeRack, setMode, setStock } from "./station-changes.js";
export type { StationDeps } from "./station-deps.js";
export { stationState } from "./station-state.js";
export { correctPut, moveStock } from "./stock-move.js";
