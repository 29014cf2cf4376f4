/**
 * Where the station's bins are on the devices (station file `bins[].light.{device,address}` and
 * `bins[].sensor.{device,channel}`, DESIGN.md §3), looked up both ways: a bin's light to drive it, a
 * button or beam back to its bin.
 */
export interface LightRef {
  device: string;
  address: string;
}

export interface BinPlace {
  id: string;
  light?: LightRef | undefined;
  sensor?: { device: string; channel: string } | undefined;
  /** a confirm input of a DI module, when the light module has no button of its own */
  button?: { device: string; channel: string } | undefined;
}

export interface StationLayout {
  binLight(binId: string): LightRef | null;
  /** The bin of a button event: its light module's button, or its DI input. */
  binOfButton(device: string, address: string): string | null;
  binOfSensor(device: string, channel: string): string | null;
  /** A slot's own light, where the rack has one fitted. */
  slotLight(location: string): LightRef | null;
  /** Where a refused scan is signalled when the seat has nothing lit: the first bin with a light. */
  signalLight(): LightRef | null;
  binIds(): string[];
}

export function createLayout(
  bins: readonly BinPlace[],
  slots: readonly { location: string; light: LightRef }[] = [],
) {
  const key = (device: string, address: string) => `${device}\u0000${address}`;
  const byBin = new Map(bins.flatMap((b) => (b.light ? [[b.id, b.light] as const] : [])));
  const byButton = new Map(
    bins.flatMap((b) => [
      ...(b.light ? [[key(b.light.device, b.light.address), b.id] as const] : []),
      ...(b.button ? [[key(b.button.device, b.button.channel), b.id] as const] : []),
    ]),
  );
  const bySensor = new Map(
    bins.flatMap((b) => (b.sensor ? [[key(b.sensor.device, b.sensor.channel), b.id] as const] : [])),
  );
  const bySlot = new Map(slots.map((s) => [s.location, s.light]));
  const first = bins.find((b) => b.light)?.light ?? null;
  const layout: StationLayout = {
    binLight: (binId) => byBin.get(binId) ?? null,
    binOfButton: (device, address) => byButton.get(key(device, address)) ?? null,
    binOfSensor: (device, channel) => bySensor.get(key(device, channel)) ?? null,
    slotLight: (location) => bySlot.get(location) ?? null,
    signalLight: () => first,
    binIds: () => bins.map((b) => b.id),
  };
  return layout;
}
