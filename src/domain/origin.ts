/** The origin of a URL, for lists of hosts the agent may name to a browser (`station.imageHosts`). Pure. */

/** An origin as the config names it: `https://images.example.com`, `http://10.0.0.9:8080`. */
export function originOf(text: string): string | null {
  try {
    const u = new URL(text);
    if (u.protocol !== "https:" && u.protocol !== "http:") return null;
    if (u.username || u.password) return null;
    return u.origin;
  } catch {
    return null;
  }
}
