/**
 * What the layer importers (repr-import.ts for print(model), torchinfo-import.ts for
 * torchinfo.summary()) assume where the printed text does not say, as codes with named
 * parameters and their English wording. The page translates the code
 * (src/ui/layers/layer-core-zh.ts is typed on `ImportNoteCode`).
 */
import type { Message } from '../types';
import type { ProblemParams } from './problems';
import { fillTemplate } from '../template';

export const IMPORT_NOTES = {
  'repr.padding': "padding='{padding}' read as {as} (stride 1)",
  'repr.globalPool': "assumed a global average pool + flatten before '{layer}' (functional in forward, e.g. MobileNetV2)",
  'repr.flatten': "assumed torch.flatten(x, 1) before '{layer}'",
  'repr.resblock': '{type}: residual add assumed (torchvision resnet.py), ReLU after each BN and after the add',
  'repr.invres': 'InvertedResidual: residual add assumed where stride is 1 and channels match (torchvision mobilenetv2.py)',
  'repr.vitblock': 'EncoderBlock: x + attention(ln_1(x)), then + mlp(ln_2(·)) (torchvision vision_transformer.py)',
  'repr.heads': 'MultiheadAttention prints no head count: assumed head dim 64 ({heads} heads)',
  'repr.encoder': 'TransformerEncoderLayer: norm_first=False and ReLU assumed unless printed; head dim 64',
  'repr.encoderNoAttn': 'TransformerEncoderLayer without self_attn',
  'repr.order': '{type}: forward assumed to call its children in printed order',
  'repr.vit': 'VisionTransformer: class token ({d}) and position embedding ({tokens}×{d}) parameters added; they do not print',
  'repr.empty': 'no module found in the text',
  'torchinfo.pool': 'functional max_pool2d({k}) assumed where the map shrinks between rows',
  'torchinfo.flatten': 'functional torch.flatten assumed where the shape flattens between rows',
  'torchinfo.gn': 'GroupNorm group count is not shown: 32 assumed',
  'torchinfo.dropout': 'Dropout p is not shown: p > 0 assumed (a 1-byte mask)',
  'torchinfo.poolArgs': 'pooling kernel taken equal to its stride (same output, same saved bytes)',
  'torchinfo.heads': 'MultiheadAttention head count is not shown: head dim 64 assumed',
  'torchinfo.downsample': 'collapsed Sequential read as conv + BatchNorm (torchvision downsample); pass depth=10 to summary() to list it',
  'torchinfo.res': '{type}: residual add assumed (torchvision resnet.py)',
  'torchinfo.resInverted': 'InvertedResidual: residual add assumed where its output shape equals its input',
  'torchinfo.resEncoder': 'EncoderBlock: two residual adds assumed (torchvision vision_transformer.py)',
  'torchinfo.vit': 'VisionTransformer: patch tokens, class token and final token select assumed',
  'torchinfo.empty': 'no summary rows found',
  'torchinfo.functional': 'functional calls (F.relu, +, torch.cat) are not summary rows; outside torchvision blocks they are not counted',
} as const;

export type ImportNoteCode = keyof typeof IMPORT_NOTES;

/** The notes an importer has made, each once (a code with the same parameters is one assumption). */
export class ImportNotes {
  readonly list: Message[] = [];
  private seen = new Set<string>();

  add(code: ImportNoteCode, params: ProblemParams = {}): void {
    const text = fillTemplate(IMPORT_NOTES[code], params);
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.list.push({ code, params, text });
  }
}
