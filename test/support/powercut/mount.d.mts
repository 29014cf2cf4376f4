export const PYTHON: string;
export function powerCutUnavailable(): string | null;
export function fsyncDir(dir: string): void;
export interface PowerCutCounts {
  cuts: number;
  fsyncs: number;
  dirFsyncs: number;
}
export interface PowerCutMount {
  /** the mount point */
  dir: string;
  /** the backing folder: what survives a cut */
  backing: string;
  cut(): void;
  counts(): PowerCutCounts;
  stderr(): string;
  unmount(): Promise<void>;
}
export function mountPowerCut(prefix?: string): Promise<PowerCutMount>;
