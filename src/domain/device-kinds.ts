/**
 * What a device is at the station: station file `devices[].kind`, firmware profile `kind`. The station
 * file's schema (config/) and the drivers (devices/) both name them, so the list sits below both.
 */
export const DEVICE_KINDS = ["scanner", "ptl-controller", "bin-sensor", "printer"] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
