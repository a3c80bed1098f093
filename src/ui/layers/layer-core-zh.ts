/**
 * The layer core's messages in the page language: its problems (src/core/layers/problems.ts) and the
 * importers' assumptions (src/core/layers/import-notes.ts). The Chinese tables are typed on the core's
 * codes, so a new message without a translation does not compile; English is the core's own wording.
 */
import type { Lang } from '../../state/store';
import { LAYER_PROBLEMS, problemText, type LayerProblem, type LayerProblemCode } from '../../core/layers/problems';
import { fillTemplate } from '../../core/template';
import { IMPORT_NOTES, type ImportNoteCode } from '../../core/layers/import-notes';
import type { Message } from '../../core/types';

/** Chinese wording of every layer problem; `{name}` placeholders as in the English. torch.nn names stay as PyTorch spells them. */
export const LAYER_PROBLEMS_ZH: Record<LayerProblemCode, string> = {
  'shape.rank': '需要 {rank} 维输入 {form}，实际为 [{got}]',
  'shape.convOut': '输出尺寸 {size} < 1（输入 {input}，卷积核 {kernel}，步长 {stride}，填充 {padding}，膨胀 {dilation}）',
  'shape.transposedOut': '输出尺寸 < 1',
  'shape.positive': '{what} 必须是正整数，实际为 {got}',
  'shape.inChannels': '需要 {want} 个输入通道，实际为 {got}',
  'shape.convGroups': '通道数 {in}→{out} 不能被分组数 {groups} 整除',
  'shape.lastDim': '最后一维应为 {want}，实际为 [{got}]',
  'shape.batchNorm1d': '需要 [C] 或 [C, L]，实际为 [{got}]',
  'shape.channels': '需要 {want} 个通道，实际为 {got}',
  'shape.normalized': '归一化形状 [{want}] 与输入 [{got}] 不匹配',
  'shape.groupNorm': '通道数 {channels} 不能被分组数 {groups} 整除',
  'shape.poolPadding': '填充不能超过卷积核的一半',
  'shape.dropout': 'p 必须在 [0, 1) 内，实际为 {got}',
  'shape.dim': '需要维度 {want}，实际为 {got}',
  'shape.posEmbed': '需要 [{tokens}, {dim}]，实际为 [{got}]',
  'shape.select': '需要 [T, ...]，实际为 [{got}]',
  'shape.embedDim': '需要嵌入维度 {want}，实际为 {got}',
  'shape.heads': '嵌入维度 {embed} 不能被 {heads} 个头整除',
  'shape.container': "'{kind}' 是容器，不是单层",
  'shape.add': '相加：主分支输出 [{body}]，捷径分支输出 [{shortcut}]',
  'shape.concat': '拼接：[{body}] 与 [{shortcut}] 在第 0 维之外不一致',
  'shape.concat0d': '拼接：主分支和捷径分支都输出 0 维张量，没有第 0 维可以拼接',
  'shape.tooMany': '超过 {max} 层',
  'shape.tooManyExpanded': '展开重复后超过 {max} 层',
  'shape.tooLarge': '输出 [{shape}] 过大',
  'shape.input': '输入形状必须是正整数，实际为 [{got}]',
  'shape.at': "层 '{path}'（{kind}）：{detail}",
  'layer.notObject': '{path}：应为层对象',
  'layer.kind': '{path}.kind：无法识别的层类型 {kind}',
  'layer.missing': '{path}：{kind} 必须提供此参数',
  'layer.field': '{path}：不是 {kind} 的参数',
  'layer.depth': '{path}：嵌套超过 {max} 层',
  'layer.value.int': '{path}：应为正整数',
  'layer.value.int0': '{path}：应为非负整数',
  'layer.value.pair': '{path}：应为正整数或 [h, w]',
  'layer.value.pair0': '{path}：应为非负整数或 [h, w]',
  'layer.value.bool': '{path}：应为 true 或 false',
  'layer.value.p': '{path}：应为 [0, 1) 内的数',
  'layer.value.shape': '{path}：应为正整数列表',
  'layer.value.act': "{path}：应为 'relu' 或 'gelu'",
  'layer.value.merge': "{path}：应为 'add' 或 'concat'",
  'layer.value.name': '{path}：名称只能含字母、数字、_ - #（最多 200 个字符）',
  'layer.value.layers': '{path}：应为层列表',
  'network.notObject': '应为层列表或 {"input": [...], "layers": [...]}',
  'network.input': 'input：应为单个样本的形状，例如 [3, 224, 224]',
  'network.layers': 'layers：应为至少一层的列表',
  'network.json': '不是合法的 JSON：{detail}',
  'batch.range': '批大小必须是 1 到 {max} 之间的整数',
};

/** A layer problem in the page language. */
export function problemWords(lang: Lang, p: LayerProblem): string {
  return lang === 'zh' ? problemText(p, (c) => LAYER_PROBLEMS_ZH[c]) : problemText(p, (c) => LAYER_PROBLEMS[c]);
}

/** Chinese wording of every importer assumption. */
export const IMPORT_NOTES_ZH: Record<ImportNoteCode, string> = {
  'repr.padding': "padding='{padding}' 按 {as} 读取（步长 1）",
  'repr.globalPool': "假定 '{layer}' 之前有全局平均池化 + 展平（在 forward 中以函数调用，例如 MobileNetV2）",
  'repr.flatten': "假定 '{layer}' 之前有 torch.flatten(x, 1)",
  'repr.resblock': '{type}：假定有残差相加（torchvision resnet.py），每个 BN 之后和相加之后各有一个 ReLU',
  'repr.invres': 'InvertedResidual：在步长为 1 且通道数相同处假定有残差相加（torchvision mobilenetv2.py）',
  'repr.vitblock': 'EncoderBlock：x + attention(ln_1(x))，再 + mlp(ln_2(·))（torchvision vision_transformer.py）',
  'repr.heads': 'MultiheadAttention 不打印头数：假定每头维度 64（{heads} 个头）',
  'repr.encoder': 'TransformerEncoderLayer：除非打印出来，假定 norm_first=False 且用 ReLU；每头维度 64',
  'repr.encoderNoAttn': 'TransformerEncoderLayer 缺少 self_attn',
  'repr.order': '{type}：假定 forward 按打印顺序调用其子模块',
  'repr.vit': 'VisionTransformer：已加上类别 token（{d}）和位置嵌入（{tokens}×{d}）参数，它们不会被打印',
  'repr.empty': '文本中没有找到模块',
  'torchinfo.pool': '特征图在两行之间缩小处，假定有函数式 max_pool2d({k})',
  'torchinfo.flatten': '形状在两行之间被展平处，假定有函数式 torch.flatten',
  'torchinfo.gn': '未显示 GroupNorm 的分组数：假定为 32',
  'torchinfo.dropout': '未显示 Dropout 的 p：假定 p > 0（1 字节掩码）',
  'torchinfo.poolArgs': '池化核取为与步长相等（输出相同，保存的字节相同）',
  'torchinfo.heads': '未显示 MultiheadAttention 的头数：假定每头维度 64',
  'torchinfo.downsample': '折叠的 Sequential 按卷积 + BatchNorm 读取（torchvision downsample）；给 summary() 传 depth=10 可列出它',
  'torchinfo.res': '{type}：假定有残差相加（torchvision resnet.py）',
  'torchinfo.resInverted': 'InvertedResidual：在输出形状等于输入处假定有残差相加',
  'torchinfo.resEncoder': 'EncoderBlock：假定有两次残差相加（torchvision vision_transformer.py）',
  'torchinfo.vit': 'VisionTransformer：假定有图像块 token、类别 token 和最后的 token 选取',
  'torchinfo.empty': '没有找到 summary 行',
  'torchinfo.functional': '函数式调用（F.relu、+、torch.cat）不是 summary 行；在 torchvision 模块之外不计入',
};

const isNote = (code: string): code is ImportNoteCode => Object.prototype.hasOwnProperty.call(IMPORT_NOTES, code);

/** An importer's note in the page language (a code the core does not list stays as written). */
export function noteWords(lang: Lang, m: Message): string {
  return lang === 'zh' && isNote(m.code) ? fillTemplate(IMPORT_NOTES_ZH[m.code], m.params ?? {}) : m.text;
}
