/** A good station file: two seats, two bins, the IRT bin, and devices of the shipped profiles. */
export const good = () => ({
  station: {
    site: "dc1",
    ppsId: "7",
    seats: ["front", "back"],
    bins: [
      {
        id: "1",
        light: { device: "ptl", address: "001001" },
        sensor: { device: "curtain", channel: "bin-A1-present" },
      },
      { id: "2", light: { device: "atop", address: 5 }, button: { device: "di", channel: "bin-2-confirm" } },
    ],
    irtBin: { id: "IRT", light: { device: "atop", address: "010" } },
  },
  devices: [
    {
      id: "scanner-front",
      kind: "scanner",
      profile: "serial-scanner-cr",
      seat: "front",
      transport: { serial: "/dev/serial/by-id/usb-Scanner-if00", baudRate: 9600 },
    },
    {
      id: "ptl",
      kind: "ptl-controller",
      profile: "sortexx-ascii",
      transport: { serial: "/dev/serial/by-id/usb-PTL-if00" },
    },
    {
      id: "curtain",
      kind: "bin-sensor",
      profile: "delta-as-ba-modbus",
      transport: { serial: "/dev/serial/by-id/usb-RS485-if00" },
    },
    {
      id: "di",
      kind: "bin-sensor",
      profile: "modbus-di-16",
      transport: { serial: "/dev/serial/by-id/usb-RS485-if00" },
    },
    {
      id: "atop",
      kind: "ptl-controller",
      profile: "atop-at500-ccb",
      transport: { tcp: { host: "10.0.0.20", port: 4660 } },
    },
    {
      id: "scanner-back",
      kind: "scanner",
      profile: "honeywell-hidpos",
      seat: "back",
      transport: { hid: { vendorId: "0x0c2e", usagePage: 140, usage: 2 } },
    },
  ],
});
