/**
 * Which options make no sense together, and why. The decision is the core's one combination
 * table (src/core/scenario/conflicts.ts): an option is disabled when choosing it breaks a rule
 * whose key it is; the form shows that rule's reason in words (i18n `why.<rule id>`).
 */
import type { FieldError, Scenario } from '../../core/types';
import { brokenRules } from '../../core/scenario/conflicts';
import { applyRules, ruleArch } from '../../core/scenario/rules';
import { SCENARIO_FIELDS } from '../../core/scenario/schema';
import { kbitPrepApplies } from '../../core/training/kbit-prep';
import { doubleQuantApplies, groupSizeApplies } from '../../core/formats/weights';
import { resolveGptqKernel } from '../../core/formats/gptq-kernel';
import type { MessageKey } from '../i18n/en';
import { optionLabel } from '../i18n/scenario-labels';
import type { Lang } from '../../state/store';

const gpusKind = SCENARIO_FIELDS.find((f) => f.prop === 'gpus')!.kind;
const GPUS_MAX = gpusKind.type === 'int' ? gpusKind.max : 1;

const NAME = new Map<keyof Scenario, string>(SCENARIO_FIELDS.map((f) => [f.prop, f.name]));
/** Keys treated as given by the user, so the rules check them and never adjust gpus silently. */
const GIVEN = new Set(SCENARIO_FIELDS.map((f) => f.name).filter((n) => n !== 'lora-rank' && n !== 'lora-targets'));

function conflicts(s: Scenario): { fixed: Scenario; errors: FieldError[] } {
  const fixed = { ...s, loraTargets: [...s.loraTargets] };
  const errors: FieldError[] = [];
  applyRules(fixed, GIVEN, errors, []);
  return { fixed, errors };
}

export interface Reason {
  key: MessageKey;
  /** the core's own (English) sentence, for a tooltip */
  detail: string;
}

/** Why `value` cannot be chosen for `prop` given the rest of `s`; undefined when it can. */
export function optionReason(s: Scenario, prop: keyof Scenario, value: string): Reason | undefined {
  const cur = s[prop];
  // a select's value as the key's type; a list key (tensor-split) asked for its own value keeps it
  const same = Array.isArray(cur) ? cur.join(',') === value : cur === null && value === 'null';
  const next = { ...s, [prop]: typeof cur === 'number' ? Number(value) : same ? cur : value };
  const arch = ruleArch(next);
  const rule = brokenRules(next, arch).find((r) => r.key === prop);
  return rule && { key: `why.${rule.id}` as MessageKey, detail: rule.words(next, arch) };
}

const ENGINES_OF = new Map(SCENARIO_FIELDS.filter((f) => f.engines).map((f) => [f.prop, f.engines!]));

/** Values for a field's `fieldReason` text: the engines that read the key, by their names. */
export function reasonParams(lang: Lang, prop: keyof Scenario): { engines: string } | undefined {
  const engines = ENGINES_OF.get(prop);
  return engines && { engines: engines.map((e) => optionLabel(lang, 'engine', e)).join(lang === 'zh' ? '、' : ' / ') };
}

/** Why a whole field does nothing in this scenario (engine-specific or LoRA-only keys). */
export function fieldReason(s: Scenario, prop: keyof Scenario): MessageKey | undefined {
  // engine-specific keys: the schema's `engines` (gpu-util: vLLM, ngl: llama.cpp, ubatch: both)
  const engines = ENGINES_OF.get(prop);
  if (engines && !engines.includes(s.engine)) return 'why.engines';
  switch (prop) {
    case 'autocast':
      return s.precision === 'bf16' || s.precision === 'fp16' ? undefined : 'why.autocast16';
    case 'bnbCompute':
      return doubleQuantApplies(s.weights) ? undefined : 'why.bnb4Only';
    case 'kbitPrep':
      return kbitPrepApplies(s) ? undefined : 'why.kbitPrepBase';
    case 'doubleQuant':
      return doubleQuantApplies(s.weights) ? undefined : 'why.bnb4Only';
    case 'bnbVersion':
      return doubleQuantApplies(s.weights) || s.weights === 'bnb-int8' ? undefined : 'why.bnbOnly';
    case 'groupSize':
      return groupSizeApplies(s.weights) ? undefined : 'why.groupedOnly';
    case 'descAct':
    case 'gptqKernel':
      return resolveGptqKernel(s.weights, 'auto') ? undefined : 'why.gptqOnly';
    case 'tensorSplit':
      return s.gpus > 1 ? undefined : 'why.multiGpuOnly';
    case 'logitsPath':
      if (s.mode === 'training') return s.lossChunks > 1 ? 'why.logitsPathChunked' : undefined;
      return s.engine === 'transformers' ? undefined : 'why.logitsPathEngine';
    case 'optimImpl':
      return s.optimizer === 'adamw' && s.zero === 0 && s.offload === 'none' ? undefined : 'why.optimImplAdam';
    case 'lenMean':
    case 'lenSpread':
    case 'allocConf':
      return s.lengths === 'varied' ? undefined : 'why.variedOnly';
    case 'loraRank':
    case 'loraTargets':
    case 'loraDropout':
    case 'adapterDtype':
    case 'loraSave':
      return s.method === 'lora' || s.method === 'qlora' ? undefined : 'why.loraOnly';
    case 'zeroImpl':
      return s.zero > 0 ? undefined : 'why.zeroOnly';
    case 'dsReduceBucket':
    case 'dsOverlapComm':
      return s.zero > 0 && s.zeroImpl === 'deepspeed' ? undefined : 'why.deepspeedOnly';
    case 'dsPrefetchBucket':
    case 'dsPersistThreshold':
    case 'dsMaxLive':
    case 'dsReuseDistance':
      return s.zero === 3 && s.zeroImpl === 'deepspeed' ? undefined : 'why.zero3Only';
    default:
      return undefined;
  }
}

/** Select-type keys the rules may move to a fallback value. */
const ENUMS: (keyof Scenario)[] = ['weights', 'kv', 'offload', 'attn', 'zeroImpl'];

/**
 * After a change, replace select values the change made impossible with the core's fallback
 * (switching to QLoRA turns bf16 weights into nf4). Numbers are never touched: their errors are
 * shown next to the field instead. Returns `s` itself when nothing needed fixing.
 */
export function repair(s: Scenario): Scenario {
  const { fixed, errors } = conflicts(s);
  const touched = ENUMS.filter((p) => errors.some((e) => e.key === NAME.get(p)) && fixed[p] !== s[p]);
  if (touched.length === 0) return s;
  const out = { ...s };
  for (const p of touched) (out as Record<string, unknown>)[p] = fixed[p];
  return out;
}

/**
 * After a tensor- or pipeline-parallel change, the GPU count follows: the smallest multiple of
 * tp · pp at or above it (world size = dp · tp · pp in Megatron-LM and DeepSpeed). The same rule a
 * link applies when it names tp or pp without gpus (rules.ts parallelRules), so form and link agree.
 */
export function withGridGpus(s: Scenario): Scenario {
  const grid = s.tp * s.pp;
  if (!(grid >= 1) || s.gpus % grid === 0) return s;
  const gpus = Math.ceil(s.gpus / grid) * grid;
  return gpus <= GPUS_MAX ? { ...s, gpus } : s;
}
