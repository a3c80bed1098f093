/**
 * Chinese wording of the layer core's problem messages (src/core/layers/ops.ts, analyze.ts,
 * validate.ts write them in English). Each known sentence form is matched whole; anything not
 * matched is shown in English as written, so a new core message is never lost.
 */
import type { Lang } from '../../state/store';

type Rule = [RegExp, string];

const DETAIL: Rule[] = [
  [/^expects a (\d)-d input (.*), got \[(.*)\]$/, '需要 $1 维输入 $2，实际为 [$3]'],
  [/^output size (-?\d+) < 1 \(input (\d+), kernel (\d+), stride (\d+), padding (\d+), dilation (\d+)\)$/, '输出尺寸 $1 < 1（输入 $2，卷积核 $3，步长 $4，填充 $5，膨胀 $6）'],
  [/^output size < 1$/, '输出尺寸 < 1'],
  [/^(.+) must be a positive integer, got (.+)$/, '$1 必须是正整数，实际为 $2'],
  [/^expects (\d+) input channels, got (\d+)$/, '需要 $1 个输入通道，实际为 $2'],
  [/^channels (\d+)→(\d+) not divisible by groups (\d+)$/, '通道数 $1→$2 不能被分组数 $3 整除'],
  [/^expects last dim (\d+), got \[(.*)\]$/, '最后一维应为 $1，实际为 [$2]'],
  [/^expects \[C\] or \[C, L\], got \[(.*)\]$/, '需要 [C] 或 [C, L]，实际为 [$1]'],
  [/^expects (\d+) channels, got (\d+)$/, '需要 $1 个通道，实际为 $2'],
  [/^channels (\d+) not divisible by groups (\d+)$/, '通道数 $1 不能被分组数 $2 整除'],
  [/^padding must be at most half the kernel$/, '填充不能超过卷积核的一半'],
  [/^p must be in \[0, 1\), got (.+)$/, 'p 必须在 [0, 1) 内，实际为 $1'],
  [/^expects dim (\d+), got (\d+)$/, '需要维度 $1，实际为 $2'],
  [/^expects \[(\d+), (\d+)\], got \[(.*)\]$/, '需要 [$1, $2]，实际为 [$3]'],
  [/^expects \[T, \.\.\.\], got \[(.*)\]$/, '需要 [T, ...]，实际为 [$1]'],
  [/^expects embed dim (\d+), got (\d+)$/, '需要嵌入维度 $1，实际为 $2'],
  [/^embed dim (\d+) not divisible by (\d+) heads$/, '嵌入维度 $1 不能被 $2 个头整除'],
  [/^add: body gives \[(.*)\], shortcut gives \[(.*)\]$/, '相加：主分支输出 [$1]，捷径分支输出 [$2]'],
  [/^concat: \[(.*)\] and \[(.*)\] differ beyond dim 0$/, '拼接：[$1] 与 [$2] 在第 0 维之外不一致'],
  [/^output \[(.*)\] is too large$/, '输出 [$1] 过大'],
  [/^more than (\d+) layers after expanding repeats$/, '展开重复后超过 $1 层'],
  [/^more than (\d+) layers$/, '超过 $1 层'],
];

/** validate.ts value descriptions after "expected". */
const EXPECTED: Record<string, string> = {
  'a positive integer': '正整数',
  'a non-negative integer': '非负整数',
  'a positive integer or [h, w]': '正整数或 [h, w]',
  'a non-negative integer or [h, w]': '非负整数或 [h, w]',
  'true or false': 'true 或 false',
  'a number in [0, 1)': '[0, 1) 内的数',
  'a list of positive integers': '正整数列表',
  "'relu' or 'gelu'": "'relu' 或 'gelu'",
  "'add' or 'concat'": "'add' 或 'concat'",
  'a list of layers': '层列表',
  'a layer object': '层对象',
  'a non-empty list of layers': '至少一层的列表',
  'a per-sample shape such as [3, 224, 224]': '单个样本的形状，例如 [3, 224, 224]',
};

const sub = (rules: Rule[], s: string): string | null => {
  for (const [re, zh] of rules) if (re.test(s)) return s.replace(re, zh);
  return null;
};

/** A layer-core problem message in Chinese where its form is known, else unchanged. */
export function shapeMessageZh(message: string): string {
  const at = /^layer '([^']*)' \((\w+)\): (.*)$/.exec(message);
  if (at) {
    const detail = sub(DETAIL, at[3]);
    return detail ? `层 '${at[1]}'（${at[2]}）：${detail}` : message;
  }
  const field = /^(\S+): expected (.*)$/.exec(message);
  if (field && EXPECTED[field[2]]) return `${field[1]}：应为${EXPECTED[field[2]]}`;
  const missing = /^(\S+): required for (\w+)$/.exec(message);
  if (missing) return `${missing[1]}：${missing[2]} 必须提供此参数`;
  const input = /^input shape must be positive integers, got \[(.*)\]$/.exec(message);
  if (input) return `输入形状必须是正整数，实际为 [${input[1]}]`;
  return sub(DETAIL, message) ?? message;
}

/** A layer-core problem message in the page language. */
export const coreMessage = (lang: Lang, message: string): string => (lang === 'zh' ? shapeMessageZh(message) : message);
