/**
 * The Accuracy view's strings (and the calculator's error-band line) in English and Simplified
 * Chinese, kept beside the view so the main bundle does not carry them. Publication names,
 * model ids and storage formats stay as their authors spell them.
 */
import type { Lang } from '../../state/store';
import { makeTranslator, type Translate } from '../i18n/make-translator';
import type { Message } from '../../core/types';

const en = {
  title: 'Accuracy',
  intro: 'Every published GPU-memory measurement we check the calculator against: the setting, the measured figure, our estimate for that setting and the error. The same rows and code run in the test suite (npm run validate prints this table), so this page and the tests cannot disagree. Hover a row id for how the figure was taken.',
  'sum.title': 'Error by kind of scenario',
  'sum.caption': 'Median and 90th-percentile absolute error of the rows of each kind.',
  'sum.kind': 'Kind',
  'sum.group': 'Publication / setting',
  'sum.n': 'Rows',
  'sum.median': 'Median |error|',
  'sum.p90': 'p90 |error|',
  'sum.all': 'All rows',
  'sum.byGroup': 'By publication and setting',
  'filter.title': 'Filter',
  'filter.source': 'Source',
  'filter.mode': 'Mode',
  'filter.model': 'Model',
  'filter.all': 'All',
  'filter.shown': '{n} of {total} measured rows shown',
  'chart.title': 'Estimate against measurement',
  'chart.help': 'Each dot is one measured row (log axes). On the diagonal line the estimate equals the measurement; above it we overestimate.',
  'chart.loading': 'Loading the chart…',
  'chart.x': 'Measured',
  'chart.y': 'Estimate',
  'chart.diag': 'estimate = measured',
  'table.title': 'Measured rows',
  'table.caption': 'Measured rows with our estimate; click a column header to sort.',
  'col.id': 'Row',
  'col.source': 'Source',
  'col.model': 'Model',
  'col.mode': 'Mode',
  'col.precision': 'Weights / precision',
  'col.batch': 'Batch',
  'col.seq': 'Tokens (in → out)',
  'col.gpus': 'GPUs',
  'col.what': 'Measured total',
  'col.measured': 'Measured',
  'col.estimate': 'Estimate',
  'col.error': 'Error',
  'what.allocated': 'torch max allocated',
  'what.device': 'nvidia-smi',
  'skip.title': 'Rows not scored ({n})',
  'skip.help': 'Published rows whose setting the calculator cannot describe, with the reason. They stay listed so nothing is dropped silently.',
  'skip.reason': 'Reason',
  'src.title': 'Sources',
  'logs.title': 'Runtime start-up logs (llama.cpp, vLLM)',
  'logs.help': 'Buffer sizes, KV cache and token pools that llama.cpp and vLLM print at start-up, quoted in public GitHub issues, against the matching part of our estimate. The row id links to the issue; hover a tolerance for its reason.',
  'logs.engine': 'Runtime',
  'logs.component': 'Figure',
  'logs.printed': 'Printed',
  'logs.tolerance': 'Tolerance',
  'logs.info': '(informational)',
  'mode.inference': 'inference',
  'mode.training': 'training',
  'family.float': '16/32-bit weights',
  'family.8bit': '8-bit weights',
  'family.4bit': '4-bit weights',
  'family.lowbit': 'other k-quant weights',
  'engine.transformers': 'HF transformers',
  'engine.vllm': 'vLLM',
  'engine.llama.cpp': 'llama.cpp',
  'method.full': 'full fine-tuning',
  'method.lora': 'LoRA',
  'method.qlora': 'QLoRA',
  'method.freeze': 'partly frozen',
  'band.line': '± {median} % typical (p90 {p90} %, {n} measured rows)',
  'band.basis': 'Error of our allocated total against published measurements of this kind of scenario: {basis}.',
  'band.none': 'Not yet checked against a published measurement',
  'band.noneWhy': 'No published measurement covers this kind of scenario yet: {basis}.',
  'band.link': 'Accuracy',
  'reason.unit': 'unit "{unit}" not decoded',
  'reason.precision': 'precision not mapped',
  'reason.seq-unknown': 'unpacked dataset: sequence length unknown',
  'reason.multi-gpu': 'FSDP CPU offload / multi-GPU recipe details not stated',
  'reason.lora-unstated': 'LoRA rank and targets not stated',
  'reason.settings-unknown': 'restates another row\'s settings yet measures twice the memory: the real settings are not published',
  'reason.prompt-unknown': 'long-prompt length not printed',
  'reason.source': 'source not mapped',
  'reason.estimate': 'the estimate rejected the setting: {errors}',
} as const;

export type AKey = keyof typeof en;

const zh: Record<AKey, string> = {
  title: '准确度',
  intro: '计算器所对照的每一条公开发布的显存实测数据：配置、实测值、我们对该配置的估算以及误差。测试套件运行的是同一批数据和同一份代码（npm run validate 会打印同一张表），因此本页与测试结果不会不一致。将鼠标悬停在编号上可查看该数据的测量方式。',
  'sum.title': '按场景类型的误差',
  'sum.caption': '每类数据行绝对误差的中位数与第 90 百分位数。',
  'sum.kind': '类型',
  'sum.group': '出处 / 配置',
  'sum.n': '行数',
  'sum.median': '|误差| 中位数',
  'sum.p90': '|误差| p90',
  'sum.all': '全部数据行',
  'sum.byGroup': '按出处与配置',
  'filter.title': '筛选',
  'filter.source': '出处',
  'filter.mode': '模式',
  'filter.model': '模型',
  'filter.all': '全部',
  'filter.shown': '显示 {n} / {total} 条实测数据',
  'chart.title': '估算值与实测值对比',
  'chart.help': '每个点是一条实测数据（对数坐标）。落在对角线上表示估算等于实测；在其上方表示高估。',
  'chart.loading': '正在加载图表…',
  'chart.x': '实测',
  'chart.y': '估算',
  'chart.diag': '估算 = 实测',
  'table.title': '实测数据',
  'table.caption': '实测数据及我们的估算；点击列标题排序。',
  'col.id': '编号',
  'col.source': '出处',
  'col.model': '模型',
  'col.mode': '模式',
  'col.precision': '权重 / 精度',
  'col.batch': '批大小',
  'col.seq': 'token 数（输入 → 输出）',
  'col.gpus': 'GPU 数',
  'col.what': '实测总量',
  'col.measured': '实测',
  'col.estimate': '估算',
  'col.error': '误差',
  'what.allocated': 'torch 最大已分配',
  'what.device': 'nvidia-smi',
  'skip.title': '未计分的数据行（{n}）',
  'skip.help': '计算器无法描述其配置的公开数据行及原因。它们仍列在这里，不会被悄悄丢弃。',
  'skip.reason': '原因',
  'src.title': '出处',
  'logs.title': '运行时启动日志（llama.cpp、vLLM）',
  'logs.help': 'llama.cpp 与 vLLM 启动时打印、并在公开 GitHub issue 中引用的缓冲区大小、KV 缓存和 token 池，与我们估算中对应部分的对比。编号链接到该 issue；将鼠标悬停在容差上可查看其理由。',
  'logs.engine': '运行时',
  'logs.component': '数值',
  'logs.printed': '日志打印值',
  'logs.tolerance': '容差',
  'logs.info': '（仅供参考）',
  'mode.inference': '推理',
  'mode.training': '训练',
  'family.float': '16/32 位权重',
  'family.8bit': '8 位权重',
  'family.4bit': '4 位权重',
  'family.lowbit': '其他 k-quant 权重',
  'engine.transformers': 'HF transformers',
  'engine.vllm': 'vLLM',
  'engine.llama.cpp': 'llama.cpp',
  'method.full': '全参数微调',
  'method.lora': 'LoRA',
  'method.qlora': 'QLoRA',
  'method.freeze': '部分冻结',
  'band.line': '典型误差 ± {median} %（p90 {p90} %，{n} 条实测数据）',
  'band.basis': '我们的已分配总量与此类场景公开实测数据相比的误差：{basis}。',
  'band.none': '尚未与公开实测数据核对',
  'band.noneWhy': '尚无公开实测数据覆盖此类场景：{basis}。',
  'band.link': '准确度',
  'reason.unit': '单位“{unit}”无法解读',
  'reason.precision': '精度无法对应',
  'reason.seq-unknown': '未打包的数据集：序列长度未知',
  'reason.multi-gpu': '未说明 FSDP CPU 卸载 / 多 GPU 配方细节',
  'reason.lora-unstated': '未说明 LoRA 秩与目标模块',
  'reason.settings-unknown': '与另一行配置相同却测得两倍显存：实际配置未公开',
  'reason.prompt-unknown': '未给出长提示的长度',
  'reason.source': '出处无法对应',
  'reason.estimate': '估算拒绝了该配置：{errors}',
};

const accuracy = makeTranslator(en, zh, (t, d): Omit<AT, keyof Translate<AKey>> => {
  const part = (p: string) => ['mode', 'engine', 'method', 'family'].map((g) => `${g}.${p}`).find((k) => k in d);
  return {
    reason: (m) => {
      const key = `reason.${m.code}`;
      return key in d ? t(key as AKey, m.params) : m.text;
    },
    kind: (key) =>
      key
        .split('/')
        .map((p) => {
          const k = part(p);
          return k ? d[k as AKey] : p;
        })
        .join(' · '),
  };
});
export const ACCURACY_DICTS = accuracy.tables;

export type AT = Translate<AKey> & {
  /** a skip reason in the page language (English text when its code is unknown) */
  reason: (m: Message) => string;
  /** a kind key such as "inference/transformers/float", part by part */
  kind: (key: string) => string;
};

/** A stable translator for the Accuracy view's strings. */
export const accuracyT: (lang: Lang) => AT = accuracy.translator;

/** The translator for the page's current language. */
export const useAT: () => AT = accuracy.useTranslator;
