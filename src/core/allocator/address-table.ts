/**
 * The addresses of an imported allocation history, each with its trace name (`0x…`, as
 * torch/cuda/_memory_viz.py prints addresses) and whether a tensor lives there now. A recorded run
 * reuses a few thousand addresses, or in a synthetic one gives each of 10^6 allocations its own:
 * an open-addressing table over typed arrays answers either in constant time per entry without
 * boxing each address as a Map key (a Map and a Set of 667,000 float64 keys took about three times
 * as long). A replay keys tensors by id (trace-columns.ts), so a name is written only when asked
 * for, with a byte table instead of Number#toString(16), which formats a float64 digit by digit.
 */

/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** `0x` and the lowercase hex of a whole number below 2^53, as `0x${addr.toString(16)}` writes it. */
export function hexAddress(addr: number): string {
  const hi = Math.floor(addr / 2 ** 32);
  const lo = addr >>> 0;
  if (hi === 0) return `0x${lo.toString(16)}`;
  return `0x${hi.toString(16)}${HEX[lo >>> 24]!}${HEX[(lo >>> 16) & 255]!}${HEX[(lo >>> 8) & 255]!}${HEX[lo & 255]!}`;
}

const EMPTY = -1;

/** MurmurHash3's 32-bit finaliser: every input bit reaches every output bit. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class AddressTable {
  /** slot → address, and slot → id (EMPTY when the slot is free) */
  private keys = new Float64Array(1024);
  private ids = new Int32Array(1024).fill(EMPTY);
  /**
   * Random per table: which slot an address takes changes nothing but speed, and a file whose
   * addresses were chosen to collide cannot know these (no quadratic probing on crafted input)
   */
  private readonly seed = (Math.random() * 2 ** 32) >>> 0;
  private readonly seedHi = (Math.random() * 2 ** 32) >>> 0;
  /** 32 − log2(slots): Fibonacci hashing keeps the top bits of the product */
  private shift = 22;
  /** id → address */
  private addrs = new Float64Array(1024);
  private count = 0;
  /** id → trace name, written when first asked for (a replay keys tensors by id and names only those a view shows) */
  private readonly names = new Map<number, string>();
  /** id → 1 while a tensor lives at the address */
  private alive = new Uint8Array(1024);

  /** The slot of `addr`, or the free slot where it would go. */
  private slot(addr: number): number {
    const lo = addr >>> 0;
    const hi = Math.floor(addr / 2 ** 32) | 0;
    const mask = this.ids.length - 1;
    let s = Math.imul(fmix32(lo ^ this.seed) ^ fmix32(hi ^ this.seedHi), 0x9e3779b1) >>> this.shift;
    while (this.ids[s] !== EMPTY && this.keys[s] !== addr) s = (s + 1) & mask;
    return s;
  }

  /** The id of `addr` (a whole number below 2^53), added with its name on first sight. */
  id(addr: number): number {
    let s = this.slot(addr);
    const known = this.ids[s]!;
    if (known !== EMPTY) return known;
    const id = this.count++;
    // at most half full, so a probe meets a free slot within a few steps
    if (2 * (id + 1) > this.ids.length) {
      this.grow();
      s = this.slot(addr);
    }
    this.keys[s] = addr;
    this.ids[s] = id;
    if (id >= this.alive.length) {
      const a = new Uint8Array(this.alive.length * 2);
      a.set(this.alive);
      this.alive = a;
      const b = new Float64Array(this.addrs.length * 2);
      b.set(this.addrs);
      this.addrs = b;
    }
    this.addrs[id] = addr;
    return id;
  }

  /** The trace name of id (from id()). */
  name(id: number): string {
    let name = this.names.get(id);
    if (name === undefined) this.names.set(id, (name = hexAddress(this.addrs[id]!))); // ids come from id()
    return name;
  }

  isLive(id: number): boolean {
    return this.alive[id] === 1;
  }

  setLive(id: number, live: boolean): void {
    this.alive[id] = live ? 1 : 0;
  }

  private grow(): void {
    const keys = this.keys;
    const ids = this.ids;
    this.keys = new Float64Array(keys.length * 2);
    this.ids = new Int32Array(ids.length * 2).fill(EMPTY);
    this.shift--;
    for (let s = 0; s < ids.length; s++) {
      const id = ids[s]!;
      if (id === EMPTY) continue;
      const t = this.slot(keys[s]!);
      this.keys[t] = keys[s]!;
      this.ids[t] = id;
    }
  }
}
