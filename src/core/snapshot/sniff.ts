/**
 * What a snapshot file is, from its first bytes, and how large one may be — shared by the CLI
 * (`allocator FILE`) and the allocator lab's file import, so both accept the same files.
 *
 * - A pickle written by protocol 2 or later starts with the PROTO opcode 0x80 (Python
 *   Lib/pickle.py `_Pickler.dump`: `self.write(PROTO + pack("<B", self.proto))`);
 *   `torch.cuda.memory._dump_snapshot()` pickles with the default protocol (torch/cuda/memory.py).
 * - A gzip stream starts with the magic bytes 0x1f 0x8b (RFC 1952 §2.3.1).
 * - Anything else is read as text: the JSON that `_snapshot()` gives through json.dump
 *   (docs/allocator-traces.md), or an allocator trace.
 */
import { MiB } from '../units';

/** Largest snapshot read, after any decompression (bytes): _dump_snapshot() files of long recordings reach the GB range. */
export const MAX_SNAPSHOT_BYTES = 1024 * MiB;

export type SnapshotKind = 'pickle' | 'gzip' | 'text';

/** The kind of a file from its first bytes. */
export function snapshotKind(head: Uint8Array): SnapshotKind {
  // protocols 0 and 1 have no PROTO opcode; 0x80 followed by another number is the unpickler's to refuse, by name
  if (head[0] === 0x80) return 'pickle';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  return 'text';
}
