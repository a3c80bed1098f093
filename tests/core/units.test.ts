import { fixedIn, formatIn, GB, GiB, humanBytes, KiB, MiB, parseBytes, TiB, UNIT_BYTES } from '../../src/core/units';

describe('unit sizes', () => {
  test('binary units are powers of 1024, decimal units powers of 1000', () => {
    expect([KiB, MiB, GiB, TiB]).toEqual([1024, 1024 * 1024, 1024 * 1024 * 1024, 1024 * 1024 * 1024 * 1024]);
    expect([UNIT_BYTES.KB, UNIT_BYTES.MB, GB, UNIT_BYTES.TB]).toEqual([1000, 1000 * 1000, 1000 * 1000 * 1000, 1000 ** 4]);
  });
});

describe('parseBytes', () => {
  test.each([
    ['24GB', 24 * 1000 ** 3],
    ['80 GiB', 80 * 1024 ** 3],
    ['512MB', 512 * 1000 ** 2],
    ['81920MiB', 81920 * 1024 ** 2], // A100 80GB's nvidia-smi total = 80 GiB
    ['1.5 tib', 1.5 * 1024 ** 4],
    ['  4 kib ', 4096],
    ['512', 512],
  ])('%s → %d bytes', (text, bytes) => {
    expect(parseBytes(text)).toEqual({ ok: true, bytes });
  });

  test('a bare number is refused when a unit is required', () => {
    expect(parseBytes('512', true)).toEqual({ ok: false, reason: 'syntax' });
  });

  test('an unknown unit is named, other text is a syntax error', () => {
    expect(parseBytes('3 floats')).toEqual({ ok: false, reason: 'unit', unit: 'floats' });
    expect(parseBytes('GB')).toEqual({ ok: false, reason: 'syntax' });
    expect(parseBytes('-1GB')).toEqual({ ok: false, reason: 'syntax' });
    expect(parseBytes('1e9')).toEqual({ ok: false, reason: 'syntax' });
  });
});

describe('formatting', () => {
  test('fixed decimals in a chosen unit', () => {
    // H100 80GB reports 81559 MiB = 81559 / 1024 GiB = 79.647… GiB
    expect(fixedIn(81559 * MiB, 'GiB')).toBe('79.65');
    expect(formatIn(81559 * MiB, 'GB')).toBe('85.52 GB'); // 85,520,809,984 B
    expect(formatIn(MiB, 'MiB', 1)).toBe('1.0 MiB');
  });

  test('humanBytes picks the largest binary unit that keeps the value ≥ 1', () => {
    expect(humanBytes(0)).toBe('0 B');
    expect(humanBytes(1023)).toBe('1023 B');
    expect(humanBytes(1536)).toBe('1.50 KiB');
    expect(humanBytes(20 * MiB)).toBe('20.00 MiB');
    expect(humanBytes(-3 * GiB)).toBe('-3.00 GiB');
    expect(humanBytes(2048 * TiB)).toBe('2048.00 TiB');
  });
});
