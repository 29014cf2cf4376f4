/**
 * Atop ABLEPick "CCB" (Communication Control Block) frames, host -> controller commands.
 * hardware.md §2.2 and §3.4 [SRC 30, 31]. Frame: LEN(L) LEN(H) MSGTYPE 00 00 00 SUB [NODE] [DATA...],
 * LEN = whole frame length; no checksum field in the manual's layout [DERIVED]. The stream parser for
 * controller events is in atop-ccb.parser.ts.
 */

/** Message types: 0x60 = port 1 (tags), 0x61 = port 2 (AT400 RS-232) [SRC 30]. */
export const ATOP_MESSAGE_TYPES = { port1: 0x60, port2: 0x61 } as const;

/** Host -> tag sub-commands [SRC 30, 31 SubCommand.cs]. */
export const ATOP_COMMANDS = {
  display: 0x00,
  clear: 0x01,
  ledOn: 0x02,
  ledOff: 0x03,
  buzzerOn: 0x04,
  buzzerOff: 0x05,
  pollRange: 0x08,
  status: 0x09,
  displayFlash: 0x10,
  flashLed: 0x11,
  flashInterval: 0x12,
  showAddress: 0x13,
  reset: 0x14,
  disableShortage: 0x15,
  enableShortage: 0x16,
  emulateConfirm: 0x17,
  emulateShortage: 0x18,
  stockMode: 0x19,
  pickingMode: 0x1a,
  disableConfirm: 0x1b,
  enableConfirm: 0x1c,
  digits: 0x1e,
  config: 0x1f,
  changeAddress: 0x3a,
  requestModel: 0xfa,
  requestDetail: 0xfc,
} as const;

/** Tag addresses 0x01-0xFA; 0xFC addresses every tag [SRC 30]. */
export const ATOP_BROADCAST = 0xfc;
const HEADER = 7;
/** DATA[0..5] hold the characters; DATA[6] is the decimal-point mask (bit0 = rightmost) [SRC 30]. */
const DISPLAY_CHARS = 6;
/** Sub-command 1F, DATA[2] = 0x55: also store into EEPROM, which has limited write endurance [SRC 30]. */
const STORE_IN_EEPROM = 0x55;

export interface AtopCcbOptions {
  /** From the profile: 0x60 for tags on port 1. */
  messageType: number;
  /**
   * Characters the tags' 7-segment display can show. The manual's display-code table is not in the
   * sources [ASSUMPTION §2.2], so the profile supplies it; undefined = any printable ASCII.
   */
  displayCharset?: string;
}

export interface CcbFields {
  messageType: number;
  subCommand: number;
  /** Omitted for controller-wide commands such as 09 (status of all devices). */
  node?: number;
  data?: readonly number[] | Uint8Array;
}

/** Builds one frame; LEN is filled in from the result, as the C# driver does [SRC 31]. */
export function encodeCcb(f: CcbFields): Uint8Array {
  const data = f.data ?? [];
  const len = HEADER + (f.node === undefined ? 0 : 1) + data.length;
  if (len > 0xff) throw new RangeError(`encodeCcb: frame of ${len} bytes is too long`);
  const out = new Uint8Array(len);
  out.set([len, 0x00, f.messageType, 0x00, 0x00, 0x00, f.subCommand]);
  if (f.node !== undefined) out[HEADER] = f.node;
  out.set(data, len - data.length);
  return out;
}

/** Encoders for the commands the station uses; one instance per controller profile. */
export class AtopCcbEncoder {
  constructor(private readonly opts: AtopCcbOptions) {
    if (!Number.isInteger(opts.messageType) || opts.messageType < 0 || opts.messageType > 0xff) {
      throw new RangeError("AtopCcbEncoder: messageType must be a byte");
    }
  }

  /**
   * Shows up to 6 characters, right-aligned, unused leading positions 0x00 as the C# driver sends them
   * [SRC 31]; `dots` is the decimal-point mask. E.g. "12" on tag 5 = 0F 00 60 00 00 00 00 05 00 00 00 00 31 32 00.
   */
  display(node: number, text: string, opts: { dots?: number; flash?: boolean } = {}): Uint8Array {
    this.checkText(text);
    const dots = opts.dots ?? 0;
    if (!Number.isInteger(dots) || dots < 0 || dots > 0x3f)
      throw new RangeError("display: dots must be 0..0x3F");
    const data = new Uint8Array(DISPLAY_CHARS + 1);
    for (let i = 0; i < text.length; i++) data[DISPLAY_CHARS - text.length + i] = text.charCodeAt(i);
    data[DISPLAY_CHARS] = dots;
    const sub = opts.flash ? ATOP_COMMANDS.displayFlash : ATOP_COMMANDS.display;
    return this.frame(sub, node, data);
  }

  clear(node: number): Uint8Array {
    return this.frame(ATOP_COMMANDS.clear, node);
  }

  led(node: number, on: boolean): Uint8Array {
    return this.frame(on ? ATOP_COMMANDS.ledOn : ATOP_COMMANDS.ledOff, node);
  }

  flashLed(node: number): Uint8Array {
    return this.frame(ATOP_COMMANDS.flashLed, node);
  }

  buzzer(node: number, on: boolean): Uint8Array {
    return this.frame(on ? ATOP_COMMANDS.buzzerOn : ATOP_COMMANDS.buzzerOff, node);
  }

  /** The tag answers with event FC "reset OK" [SRC 30]. */
  reset(node: number): Uint8Array {
    return this.frame(ATOP_COMMANDS.reset, node);
  }

  /** 09: status of all devices; LEN 7, no sub-node [SRC 30]. */
  statusRequest(): Uint8Array {
    return encodeCcb({ messageType: this.opts.messageType, subCommand: ATOP_COMMANDS.status });
  }

  /**
   * 1F colour config: DATA = 00, colour code (from the profile's colour table). `persist` adds 0x55 =
   * store into EEPROM; the manual warns about write endurance, so never per pick [SRC 30].
   */
  colour(node: number, colourCode: number, persist = false): Uint8Array {
    if (!Number.isInteger(colourCode) || colourCode < 0 || colourCode > 0xff) {
      throw new RangeError("colour: colourCode must be a byte");
    }
    const data = persist ? [0x00, colourCode, STORE_IN_EEPROM] : [0x00, colourCode];
    return this.frame(ATOP_COMMANDS.config, node, data);
  }

  confirmButton(node: number, enabled: boolean): Uint8Array {
    return this.frame(enabled ? ATOP_COMMANDS.enableConfirm : ATOP_COMMANDS.disableConfirm, node);
  }

  shortageButton(node: number, enabled: boolean): Uint8Array {
    return this.frame(enabled ? ATOP_COMMANDS.enableShortage : ATOP_COMMANDS.disableShortage, node);
  }

  showAddress(node: number): Uint8Array {
    return this.frame(ATOP_COMMANDS.showAddress, node);
  }

  private frame(subCommand: number, node: number, data?: readonly number[] | Uint8Array): Uint8Array {
    if (!Number.isInteger(node) || ((node < 0x01 || node > 0xfa) && node !== ATOP_BROADCAST)) {
      throw new RangeError(`node ${node} is not a tag address (1-250) or broadcast (252)`);
    }
    return encodeCcb({ messageType: this.opts.messageType, subCommand, node, ...(data ? { data } : {}) });
  }

  private checkText(text: string): void {
    if (text.length > DISPLAY_CHARS) throw new RangeError(`display: at most ${DISPLAY_CHARS} characters`);
    const allowed = this.opts.displayCharset;
    for (const ch of text) {
      const ok = allowed === undefined ? /^[\x20-\x7e]$/.test(ch) : allowed.includes(ch);
      if (!ok) throw new RangeError(`display: character ${JSON.stringify(ch)} cannot be shown`);
    }
  }
}
