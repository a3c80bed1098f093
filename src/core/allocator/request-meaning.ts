/**
 * What the "Tried to allocate X" figure says about the tensor: X is get_allocation_size of the
 * rounded request (docs/reference/allocator.md §1 "Decoding tip"): 2 MiB for ≤ 1 MiB, 20 MiB for 1–10 MiB,
 * otherwise the request rounded up to 2 MiB.
 */
import type { Message } from '../types';
import { kLargeBuffer, kMinLargeAlloc, kRoundLarge, kSmallBuffer, kSmallSize } from './constants';
import { humanBytes } from '../units';

export interface RequestMeaning {
  /** the segment size printed */
  segment: number;
  pool: 'small' | 'large' | 'unknown';
  /** the tensor's size lies in (tensorMin, tensorMax]; tensorMin 0 means "up to" */
  tensorMin: number;
  tensorMax: number;
  message: Message;
}

/** Reads the printed request `bytes` (±precision from 2-decimal printing). */
export function describeRequest(bytes: number, precision: number): RequestMeaning {
  const near = (x: number) => Math.abs(bytes - x) <= precision;
  if (near(kSmallBuffer)) {
    return {
      segment: kSmallBuffer,
      pool: 'small',
      tensorMin: 0,
      tensorMax: kSmallSize,
      message: { code: 'request.small', text: 'A new 2 MiB small-pool segment: the tensor is at most 1 MiB. Failing on so small a request means the card is full.' },
    };
  }
  if (near(kLargeBuffer)) {
    return {
      segment: kLargeBuffer,
      pool: 'large',
      tensorMin: kSmallSize,
      tensorMax: kLargeBuffer,
      message: { code: 'request.large-buffer', text: 'A new 20 MiB segment: the tensor is between 1 MiB and 10 MiB (1–10 MiB tensors share 20 MiB segments), or just under 20 MiB.' },
    };
  }
  if (bytes + precision >= kMinLargeAlloc) {
    const lo = Math.max(kMinLargeAlloc - 1, bytes - kRoundLarge - precision);
    const hi = bytes + precision;
    return {
      segment: bytes,
      pool: 'large',
      tensorMin: lo,
      tensorMax: hi,
      message: {
        code: 'request.large',
        params: { min: lo, max: hi },
        text: `A segment of its own: the tensor is between ${humanBytes(lo)} and ${humanBytes(hi)} (requests of 10 MiB or more are rounded up to 2 MiB; more with roundup_power2_divisions).`,
      },
    };
  }
  return {
    segment: bytes,
    pool: 'unknown',
    tensorMin: 0,
    tensorMax: bytes,
    message: { code: 'request.unusual', text: 'Not a size the native caching allocator asks for (2 MiB, 20 MiB, or ≥ 10 MiB in 2 MiB steps); another allocator or an unusual setting printed it.' },
  };
}
