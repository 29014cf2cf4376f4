/** A broker URL for the log and /readyz: without a password given in it. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
