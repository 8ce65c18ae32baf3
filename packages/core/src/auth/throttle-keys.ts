/** The throttle keys of an attempt: its account, when a login names one, and its client. */
export interface ThrottleKeys {
  readonly account: string | undefined;
  readonly client: string;
}

/** The keys failures of an attempt are counted under: the login (case-insensitive) and the client (see clientKeyOf). */
export function throttleKeys(login: string | undefined, clientAddress: string): ThrottleKeys {
  return { account: login === undefined ? undefined : `account:${login.toLowerCase()}`, client: `client:${clientKeyOf(clientAddress)}` };
}

/**
 * What one client is known by: an IPv4 address as it is, an IPv6 address by
 * its /64 prefix. A subscriber is given a whole /64 and can change addresses
 * within it at will, so counting single IPv6 addresses would count nothing.
 * IPv4 written as IPv6 (`::ffff:192.0.2.1`) is the IPv4 address; anything
 * that is no IP address is kept as it is.
 */
export function clientKeyOf(address: string): string {
  const lower = address.toLowerCase();
  if (!lower.includes(":")) return lower;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const groups = ipv6Groups(lower);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : lower;
}

/** The eight groups of an IPv6 address without leading zeros, or undefined when it is none. */
function ipv6Groups(address: string): string[] | undefined {
  const withoutZone = address.split("%", 1)[0] ?? "";
  const halves = withoutZone.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const last = tail.length ? tail : head;
  // An embedded IPv4 address (::1.2.3.4, 64:ff9b::192.0.2.1) counts as two groups.
  const dotted = last[last.length - 1];
  if (dotted?.includes(".")) {
    const bytes = dotted.split(".").map(Number);
    if (bytes.length !== 4 || bytes.some((byte) => !Number.isInteger(byte) || byte < 0 || byte > 255)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    last.splice(last.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => group.replace(/^0+(?=.)/, ""));
}
