/** A text on the operator screen (docs/station.md#operator-screen): a catalogue key and its parameters. Pure data. */
export interface Msg {
  key: string;
  params?: Record<string, string | number>;
}
