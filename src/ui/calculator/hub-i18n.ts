/**
 * Strings of "Fetch from Hugging Face", in English and Simplified Chinese, kept in the lazy chunk of
 * the config.json box that holds it. The Hub reader's errors are core codes, worded in
 * src/ui/i18n/core-zh.ts.
 */
import { makeTranslator, type Translate } from '../i18n/make-translator';

const en = {
  title: 'Or fetch it from Hugging Face',
  id: 'Model id on the Hub',
  privacy:
    'Nothing is sent until you press Fetch. Then this page asks huggingface.co for config.json and the first bytes of each .safetensors file (an HTTP Range request): the exact size and dtypes, without downloading the weights.',
  fetch: 'Fetch',
  busy: 'Asking huggingface.co for {id}…',
  loaded: 'Loaded {id}: a {family} architecture.',
  files: 'Its {files} safetensors file(s) hold {elements} elements ({bytes}): {dtypes}.',
  noFiles: 'It has no safetensors files, so the count comes from config.json alone.',
  counted: 'Counted from config.json: {params} parameters.',
  packed: 'The files hold quantized weights packed several to an element, so their element count is not the parameter count.',
  configBad: "{id}'s config.json could not be read as a model:",
} as const;

type HubKey = keyof typeof en;

const zh: Record<HubKey, string> = {
  title: '或者从 Hugging Face 获取',
  id: 'Hub 上的模型 id',
  privacy: '按下“获取”之前不会发送任何内容。之后本页会向 huggingface.co 请求 config.json 和每个 .safetensors 文件开头的字节（HTTP Range 请求）：不下载权重即可得到精确的大小和数据类型。',
  fetch: '获取',
  busy: '正在向 huggingface.co 请求 {id}…',
  loaded: '已载入 {id}：{family} 架构。',
  files: '它的 {files} 个 safetensors 文件共有 {elements} 个元素（{bytes}）：{dtypes}。',
  noFiles: '它没有 safetensors 文件，参数量只能根据 config.json 计算。',
  counted: '根据 config.json 计算：{params} 个参数。',
  packed: '这些文件存放的是量化权重，一个元素里打包了多个权重，因此元素数不等于参数量。',
  configBad: '{id} 的 config.json 无法读取为模型：',
};

const hub = makeTranslator(en, zh);

export type HubT = Translate<HubKey>;

/** The translator for the page's current language. */
export const useHubT: () => HubT = hub.useTranslator;
