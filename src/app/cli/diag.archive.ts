/**
 * The `pps-edge diag` archive: a tar.gz of a few text files, written with node:zlib and the ustar
 * header of POSIX.1-1988 (pubs.opengroup.org, "pax": ustar Interchange Format) rather than the
 * system's `tar`: no temporary folder, no dependence on what the box has installed, and every file is
 * small and made in memory. `tar -xzf` (GNU or BSD) reads it.
 */
import { gzipSync } from "node:zlib";

export interface ArchiveFile {
  /** The path inside the archive (under 100 bytes). */
  name: string;
  text: string;
}

const BLOCK = 512;

/** An octal field of `width` bytes: digits, then NUL. */
function octal(header: Buffer, at: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, "0")}\0`, at, width, "ascii");
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`archive path too long: ${name}`);
  h.write(name, 0, 100, "utf8");
  octal(h, 100, 8, 0o644);
  octal(h, 108, 8, 0); // uid, gid: root; tar extracts as the user who runs it
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, Math.floor(mtime / 1000));
  h.write("0", 156, 1, "ascii"); // a regular file
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  // the checksum counts its own field as eight spaces
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/** The files as one gzip-compressed tar archive. */
export function tarGz(files: readonly ArchiveFile[], mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    const body = Buffer.from(f.text, "utf8");
    parts.push(
      header(f.name, body.length, mtime),
      body,
      Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK),
    );
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // the end of the archive: two zero blocks
  return gzipSync(Buffer.concat(parts));
}
