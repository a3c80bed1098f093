// Trace names of imported addresses: Python's hex() of the address (what torch/cuda/_memory_viz.py prints).
import { describe, expect, it } from 'vitest';
import { AddressTable, hexAddress } from '../../../src/core/allocator/address-table';

describe('hexAddress', () => {
  it("writes Python's hex() of the address", () => {
    // hex(139637976727552) == '0x7f0000000000'; hex(4294967297) == '0x100000001'; hex(2**53 - 1) == '0x1fffffffffffff'
    expect(hexAddress(139_637_976_727_552)).toBe('0x7f0000000000');
    expect(hexAddress(4_294_967_297)).toBe('0x100000001');
    expect(hexAddress(2 ** 53 - 1)).toBe('0x1fffffffffffff');
    expect(hexAddress(4096)).toBe('0x1000');
    expect(hexAddress(0)).toBe('0x0');
  });
});

describe('AddressTable', () => {
  it('gives each address one id and name, past several growths, and tracks which are live', () => {
    const t = new AddressTable();
    // 5,000 addresses 2 MiB apart (cudaMalloc alignment), far past the first 1,024 slots
    const addrs = Array.from({ length: 5000 }, (_, i) => 0x7f0000000000 + i * 2 ** 21);
    const ids = addrs.map((a) => t.id(a));
    expect(new Set(ids).size).toBe(5000);
    expect(addrs.map((a) => t.id(a))).toEqual(ids);
    expect(t.name(ids[4999])).toBe('0x7f0270e00000'); // hex(0x7f0000000000 + 4999 * 2**21)
    t.setLive(ids[7], true);
    expect([t.isLive(ids[7]), t.isLive(ids[8])]).toEqual([true, false]);
    t.setLive(ids[7], false);
    expect(t.isLive(ids[7])).toBe(false);
  });
});
