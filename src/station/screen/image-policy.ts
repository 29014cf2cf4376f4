/**
 * Which item images the operator screen shows (docs/security.md#operator-screen-images). An item's
 * `imageUrl` is central's data: shown as it is, it would make the kiosk fetch any address central names
 * (an internal service, a tracker). The screen shows an image only from an origin in
 * `station.imageHosts`, and its Content-Security-Policy lets the browser load images from those origins
 * alone (`img-src`, w3.org/TR/CSP3), so a URL that slips past is still not fetched. Pure: no IO.
 */
import { originOf } from "../../domain/origin.js";

/**
 * The image URL if it is an http(s) URL on one of `hosts` (origins), or an image inlined as a `data:`
 * URL (nothing fetched); else null: not shown.
 */
export function shownImage(url: string | null, hosts: readonly string[]): string | null {
  if (url === null) return null;
  if (/^data:image\//i.test(url)) return url;
  const origin = originOf(url);
  return origin !== null && hosts.includes(origin) ? url : null;
}

/** The page's Content-Security-Policy: only what the page itself loads, and images from `hosts`. */
export function screenCsp(hosts: readonly string[]): string {
  const img = ["'self'", "data:", ...hosts].join(" ");
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src ${img}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

interface WithImage {
  imageUrl: string | null;
}

/** The screen's reads with every image not on `hosts` left out. */
export function withShownImages<
  S extends {
    pickLines(): WithImage[];
    putItems(): WithImage[];
  },
>(store: S, hosts: readonly string[]): S {
  const shown = <T extends WithImage>(rows: T[]): T[] =>
    rows.map((r) => (r.imageUrl === null ? r : { ...r, imageUrl: shownImage(r.imageUrl, hosts) }));
  return {
    ...store,
    pickLines: () => shown(store.pickLines()),
    putItems: () => shown(store.putItems()),
  } as S;
}
