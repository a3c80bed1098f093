/**
 * Public API of the caching-allocator simulator, trace tools, OOM decoder and memory_summary reader.
 * Behaviour from pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp, CUDAAllocatorConfig.cpp and
 * torch/cuda/memory.py (see docs/methodology.md, Allocator simulator).
 */
export { allocationSize, formatSize, poolFor, roundSize, type PoolKind } from './constants';
export { defaultConfig, parseAllocConf, type AllocatorConfig } from './config';
export { CachingAllocator, type DeviceSpec, type MallocOutcome, type OomFacts } from './allocator';
export { toMemoryStats, type MemoryStatKey, type MemoryStats } from './stats';
export { viewAllocator, type AllocatorView, type BlockState, type BlockView, type SegmentView } from './view';
export { formatOomMessage, oomExceptionName, OOM_VERSIONS, type OomContext, type OomVersion } from './oom-message';
export { parseTrace, traceToText, type Trace, type TraceError, type TraceEvent, type TraceParse, type TraceSettings } from './trace';
export { parseByteSize, type SizeParse } from './size-text';
export { findPreset, TRACE_PRESETS, type TracePreset } from './presets';
export { importMemoryHistory, importSnapshot, importSnapshotPickle, type HistoryImport, type HistoryParse, type RecordedRun } from './history-import';
export { replayFidelity, type ReplayFidelity, type ReplayFigures } from './replay-fidelity';
export { compareConfs, DEFAULT_COMPARISON, type ConfComparison } from './compare';
export { simulateTrace, stepAt, viewAt, type ResolvedSettings, type SimOptions, type SimRun, type StepOutcome, type StepRecord, type Timeline } from './run';
export { decodeOom, OOM_EXAMPLE, stripAnsi, type DecodedOom, type OomDecode, type OomField } from './oom-decoder';
export { describeRequest, type RequestMeaning } from './request-meaning';
export { diagnoseOom, suggestMaxSplitMb, type Advice, type Diagnosis, type DiagnosisCode, type OomFigures } from './advice';
export { fitAdvice, withOption, NO_CONTEXT, type AdviceContext } from './advice-fit';
export { OPTION_SINCE, optionStatus, releaseAtLeast, type AdvisedOption, type OptionStatus } from './conf-history';
export { parseMemoryStats, MAX_STATS_KEYS, type StatsCounters, type StatsFigures, type StatsParse, type StatsReading } from './stats-dict';
export { formatMemorySummary, parseMemorySummary, type SummaryCell, type SummaryParse, type SummaryReading, type SummaryRow } from './summary';
