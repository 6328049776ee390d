/**
 * Which IP addresses a fetch may reach. Anything that is not a public unicast address is refused:
 * loopback, private (RFC 1918, unique-local), link-local (where cloud metadata services live),
 * carrier-grade NAT, multicast, reserved and documentation ranges. IPv6 forms that carry an IPv4
 * address inside (`::ffff:10.0.0.1`, `::10.0.0.1`, NAT64 `64:ff9b::`, 6to4 `2002::`) are judged by
 * the IPv4 address they carry, so wrapping a private address in IPv6 does not get it through.
 */

interface Range {
  bytes: readonly number[];
  prefix: number;
  name: string;
}

const IPV4_BLOCKED: readonly Range[] = [
  { bytes: [0, 0, 0, 0], prefix: 8, name: "a 'this network' address" },
  { bytes: [10, 0, 0, 0], prefix: 8, name: "a private address" },
  { bytes: [100, 64, 0, 0], prefix: 10, name: "a carrier-grade NAT address" },
  { bytes: [127, 0, 0, 0], prefix: 8, name: "a loopback address" },
  { bytes: [169, 254, 0, 0], prefix: 16, name: "a link-local address" },
  { bytes: [172, 16, 0, 0], prefix: 12, name: "a private address" },
  { bytes: [192, 0, 0, 0], prefix: 24, name: "a reserved address" },
  { bytes: [192, 0, 2, 0], prefix: 24, name: "a documentation address" },
  { bytes: [192, 88, 99, 0], prefix: 24, name: "a reserved address" },
  { bytes: [192, 168, 0, 0], prefix: 16, name: "a private address" },
  { bytes: [198, 18, 0, 0], prefix: 15, name: "a reserved address" },
  { bytes: [198, 51, 100, 0], prefix: 24, name: "a documentation address" },
  { bytes: [203, 0, 113, 0], prefix: 24, name: "a documentation address" },
  { bytes: [224, 0, 0, 0], prefix: 4, name: "a multicast address" },
  { bytes: [240, 0, 0, 0], prefix: 4, name: "a reserved address" },
];

const IPV6_BLOCKED: readonly Range[] = [
  { bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], prefix: 128, name: "a loopback address" },
  { bytes: [0, 0x64, 0xff, 0x9b, 0, 1], prefix: 48, name: "a local-use NAT64 address" },
  { bytes: [0x01, 0, 0, 0, 0, 0, 0, 0], prefix: 64, name: "a discard-only address" },
  { bytes: [0x20, 0x01, 0, 0], prefix: 32, name: "a Teredo tunnel address" },
  { bytes: [0x20, 0x01, 0x0d, 0xb8], prefix: 32, name: "a documentation address" },
  { bytes: [0xfc], prefix: 7, name: "a unique-local (private) address" },
  { bytes: [0xfe, 0x80], prefix: 10, name: "a link-local address" },
  { bytes: [0xfe, 0xc0], prefix: 10, name: "a site-local address" },
  { bytes: [0xff], prefix: 8, name: "a multicast address" },
];

/** IPv6 prefixes whose address embeds an IPv4 address, and where the IPv4 bytes are. */
const IPV4_CARRIERS: readonly { bytes: readonly number[]; prefix: number; offset: number }[] = [
  { bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], prefix: 96, offset: 12 },
  { bytes: [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], prefix: 96, offset: 12 },
  { bytes: [0x20, 0x02], prefix: 16, offset: 2 },
  // IPv4-compatible (deprecated) `::a.b.c.d`; `::` and `::1` are caught by the rules below first.
  { bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], prefix: 96, offset: 12 },
];

/**
 * Why `address` must not be fetched ("a loopback address"), or undefined for a public address.
 * Text that is not an IP address is refused too: the caller resolved it and should have an address.
 */
export function blockedAddressReason(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4) return matchRange(v4, IPV4_BLOCKED);
  const v6 = parseIpv6(address);
  if (!v6) return "not an IP address";
  if (v6.every((byte) => byte === 0)) return "the unspecified address";
  const own = matchRange(v6, IPV6_BLOCKED);
  if (own) return own;
  for (const carrier of IPV4_CARRIERS) {
    if (!inRange(v6, carrier.bytes, carrier.prefix)) continue;
    const inner = matchRange(v6.slice(carrier.offset, carrier.offset + 4), IPV4_BLOCKED);
    return inner ? `${inner} inside an IPv6 address` : undefined;
  }
  return undefined;
}

export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== undefined || parseIpv6(host) !== undefined;
}

/** Strict dotted-quad IPv4 (what resolvers and the URL parser produce). */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^(0|[1-9][0-9]{0,2})$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : undefined;
}

/** IPv6 text (with or without brackets, zone id, `::`, or an IPv4 tail) as 16 bytes. */
export function parseIpv6(text: string): number[] | undefined {
  let value = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = value.indexOf("%");
  if (zone !== -1) value = value.slice(0, zone);
  if (!value.includes(":")) return undefined;
  let tail: number[] = [];
  const lastColon = value.lastIndexOf(":");
  if (value.slice(lastColon + 1).includes(".")) {
    const v4 = parseIpv4(value.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    // Drop the IPv4 text, keeping a "::" it followed: "::ffff:1.2.3.4" → "::ffff", "::1.2.3.4" → "::".
    const head = value.slice(0, lastColon + 1);
    value = head.endsWith("::") ? head : head.slice(0, -1);
  }
  const halves = value.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0]);
  const rest = groupsOf(halves[1]);
  const wanted = 8 - tail.length / 2;
  const missing = wanted - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!groups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  const bytes = groups.flatMap((group) => {
    const number = Number.parseInt(group, 16);
    return [number >> 8, number & 0xff];
  });
  return [...bytes, ...tail];
}

function matchRange(bytes: readonly number[], ranges: readonly Range[]): string | undefined {
  return ranges.find((range) => inRange(bytes, range.bytes, range.prefix))?.name;
}

function inRange(bytes: readonly number[], base: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const index = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[index] ?? 0) & mask) !== ((base[index] ?? 0) & mask)) return false;
  }
  return true;
}
