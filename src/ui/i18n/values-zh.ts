/**
 * Chinese for the words in derivation values (the "values" list under a term's formula): the core
 * writes them in English (core/formula, a term's `values`), and the page shows this text instead in
 * Chinese, looked up by the whole English string; symbols and math stay as they are. A value not
 * here shows in English. tests/ui/i18n/derivation-values.test.ts walks the estimator's scenarios and
 * fails on any worded value without an entry.
 */
export const VALUE_ZH: Record<string, string> = {
  's·b·(2·(e_ln + e)·h + e·c·h + e·(2ad + kv + 2f)/t + 2h) [+ a·s²·b·(e_sm + 1 + e)/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, e_ln = 4: autocast’s fp32 copy of the LayerNorm input':
    's·b·(2·(e_ln + e)·h + e·c·h + e·(2ad + kv + 2f)/t + 2h) [eager 时 + a·s²·b·(e_sm + 1 + e)/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数，e_ln = 4：autocast 为 LayerNorm 输入做的 fp32 副本',
  'frozen base: s·b·(2·e_ln·h + e·(ad + kv + ad + 1f)/t + 2h + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a), e_ln = 4: autocast’s fp32 copy of the LayerNorm input':
    '冻结的基座：s·b·(2·e_ln·h + e·(ad + kv + ad + 1f)/t + 2h + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），e_ln = 4：autocast 为 LayerNorm 输入做的 fp32 副本',
  // dequantization and quantized kernels
  '(2 + 4)·max(d_in·d_out) (16-bit dequant + fp32 cast), forward and backward': '(2 + 4)·max(d_in·d_out)（16 位反量化 + fp32 转换），前向与反向各一次',
  '2·max(d_in·d_out), forward and backward': '2·max(d_in·d_out)，前向与反向各一次',
  'forward: max(d_in·d_out)·(4 + 1) (int32 bitwise_right_shift + .to(int8)); the fp16 result is saved (activations)':
    '前向：max(d_in·d_out)·(4 + 1)（int32 bitwise_right_shift + .to(int8)）；fp16 结果为反向保存（计入激活）',
  'max over layers of d_in·d_out·2 + d_out·max_input_len·max_batch·4 (+256)': '各层 d_in·d_out·2 + d_out·max_input_len·max_batch·4（+256）中的最大值',
  'q_perm + q_invperm, int16 [in] per quantized layer': '每个量化层一对 q_perm + q_invperm，int16 [in]',
  'temp_dq (largest d_in·d_out, fp16) + temp_state (max_input_len × widest dimension, fp16, with act-order; else 1 × 1)':
    'temp_dq（最大的 d_in·d_out，fp16）+ temp_state（act-order 时为 max_input_len × 最宽维度，fp16；否则 1 × 1）',
  'frozen base: s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) (LLM.int8 keeps every Linear input); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)（LLM.int8 保留每个 Linear 的输入）；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'frozen base: s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) (+ AWQ: an fp16 input copy per Linear); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)（+ AWQ：每个 Linear 一份 fp16 输入副本）；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'forward: b·s·max(d_in + (4 + 2)·d_out) (CA int8, int32 product, fp16 result before .to(dtype_A)); backward: max(d_in·d_out)·e_in (CB.to(dtype_A, copy=True))':
    '前向：b·s·max(d_in + (4 + 2)·d_out)（int8 的 CA、int32 乘积、.to(dtype_A) 之前的 fp16 结果）；反向：max(d_in·d_out)·e_in（CB.to(dtype_A, copy=True)）',
  'forward: packed GEMM (b·s < 1024); backward: 2·max(d_in·d_out)·(1 + b) (dequantized weight + .repeat(batch_size, 1, 1))':
    '前向：直接用打包权重做 GEMM（b·s < 1024）；反向：2·max(d_in·d_out)·(1 + b)（反量化权重 + .repeat(batch_size, 1, 1)）',
  'one Linear’s 16-bit weight, quantized on the GPU as it loads': '一个 Linear 的 16 位权重，载入时在 GPU 上量化',
  'frozen base: s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) (+ bitsandbytes ≤ 0.43.1: each 4-bit Linear keeps its input in the compute dtype); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)（+ bitsandbytes ≤ 0.43.1：每个 4 位 Linear 以计算精度保留其输入）；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'frozen base: s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) (LLM.int8 ≤ 0.43.1 keeps every Linear input and its int8 CAt); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)（LLM.int8 ≤ 0.43.1 保留每个 Linear 的输入及其 int8 CAt）；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'prepare_model_for_kbit_training: non-Linear parameters to fp32': 'prepare_model_for_kbit_training：非 Linear 参数转为 fp32',
  // loss and logits
  "16-bit chunks; fused upcast + CE per chunk, the chunk saved for its backward; one chunk's gradient in backward": '16 位分块；每块融合上转与交叉熵，该块为反向保存；反向时只有一块的梯度',
  'fp32 model output, fp32 log-softmax; del logits after the loss': 'fp32 模型输出、fp32 log-softmax；算完损失后 del logits',
  "peak: logits, every chunk's fp32 log-softmax, one chunk's upcast; held: the log-softmax outputs; backward: + two fp32 gradients of one chunk":
    '峰值：logits、每块的 fp32 log-softmax、一块的上转；保留：log-softmax 输出；反向：再加一块的两个 fp32 梯度',
  'peak: logits, fp32 upcast, fp32 log-softmax; held: log-softmax (the logits are dropped); backward: + two fp32 gradients; head: the logits gradient':
    '峰值：logits、fp32 上转、fp32 log-softmax；保留：log-softmax（logits 已丢弃）；反向：再加两个 fp32 梯度；LM 头：logits 的梯度',
  'peak: logits, fp32 upcast, fp32 log-softmax; held: log-softmax (the logits are dropped); backward: + two fp32 gradients; head: the logits gradient; + V·h·e_cast (autocast copy of the fp32 LM head, saved for backward)':
    '峰值：logits、fp32 上转、fp32 log-softmax；保留：log-softmax（logits 已丢弃）；反向：再加两个 fp32 梯度；LM 头：logits 的梯度；+ V·h·e_cast（fp32 LM 头在 autocast 下的副本，为反向保存）',
  'peak: logits, fp32 upcast, fp32 log-softmax; held: log-softmax (the logits are dropped); backward: + two fp32 gradients; head: the logits gradient; + s·b·V·e (tanh output of the final logit softcapping, saved for backward)':
    '峰值：logits、fp32 上转、fp32 log-softmax；保留：log-softmax（logits 已丢弃）；反向：再加两个 fp32 梯度；LM 头：logits 的梯度；+ s·b·V·e（最终 logit softcapping 的 tanh 输出，为反向保存）',
  'last position only, fp32 copy in _sample': '只有最后一个位置，_sample 中有一份 fp32 副本',
  'whole prompt, lm_head output and its permute().contiguous() copy': '整段提示词，lm_head 输出及其 permute().contiguous() 副本',
  'last position (return_last_logit), model dtype': '仅最后一个位置（return_last_logit），模型精度',
  // remote-code models' own buffers (inference/remote-runtime.ts)
  'the last step’s cache tuple, until the step returns (first step: the prompt’s, with its views)': '上一步的缓存元组，直到这一步返回（第一步：提示阶段的元组及其视图）',
  'the prompt pass’s cache entries are views of the fused projection': '提示阶段的缓存条目是融合投影输出的视图',
  'V a view of c_attn [b, s, 3h], K rotated: 2h·e': 'V 是 c_attn [b, s, 3h] 的视图，K 经旋转另存：2h·e',
  'V a view of query_key_value [s, b, (a + 2g)·d], K rotated: (a + g)·d·e': 'V 是 query_key_value [s, b, (a + 2g)·d] 的视图，K 经旋转另存：(a + g)·d·e',
  'V a view of query_key_value [s, b, 3h], K rotated: 2h·e': 'V 是 query_key_value [s, b, 3h] 的视图，K 经旋转另存：2h·e',
  'V a view of wqkv [b, s, (a + 2g)·d], K rotated: (a + g)·d·e': 'V 是 wqkv [b, s, (a + 2g)·d] 的视图，K 经旋转另存：(a + g)·d·e',
  'V a view of W_pack [3, b, s, h], K rotated: 2h·e': 'V 是 W_pack [3, b, s, h] 的视图，K 经旋转另存：2h·e',
  'K and V views of W_pack [3, b, s, h]: h·e': 'K 和 V 都是 W_pack [3, b, s, h] 的视图：h·e',
  'none: K and V are the k_proj / v_proj outputs, cached before RoPE': '无：K 和 V 就是 k_proj / v_proj 的输出，在 RoPE 之前缓存',
  'none: the 8-bit cache is stored in new tensors': '无：8 位缓存存放在新张量中',
  'logn_tensor per layer': '每层一份 logn_tensor',
  'fp32 cos_cached + sin_cached per layer': '每层一份 fp32 cos_cached + sin_cached',
  'whole prompt, logits.float() in forward': '整段提示词，forward 中 logits.float()',
  'whole prompt, model dtype': '整段提示词，模型精度',
  'task head logits (fp32)': '任务头的 logits（fp32）',
  'last_hidden_state b·s·h + pooler dense and tanh 2·b·h': 'last_hidden_state b·s·h + pooler 的 dense 与 tanh 2·b·h',
  // activations
  'compiled: s·b·(2·(e_res + e)·h + e·(2ad + kv + 3f)/t) [+ b·a·s²·(4+e)/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; offloaded to CPU: 2 layers in flight on the GPU':
    '编译后：s·b·(2·(e_res + e)·h + e·(2ad + kv + 3f)/t) [eager 时 + b·a·s²·(4+e)/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；卸载到 CPU：GPU 上同时有 2 层在传输',
  'frozen base: s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + 2·(ad + kv + ad) + 4·3f/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'frozen base: s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  'frozen base: s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) + Σ_linears 2·d_in·d_out (GPTQ: dequantized weights saved by matmul); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A) + Σ_linears 2·d_in·d_out（GPTQ：matmul 为反向保存的反量化权重）；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  's·b·(2·(4 + e_res + 4 + e)·h + n_post·(4 + e_res + 4)·h + e·c·h + e·(2ad + kv + 4f)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer':
    's·b·(2·(4 + e_res + 4 + e)·h + n_post·(4 + e_res + 4)·h + e·c·h + e·(2ad + kv + 4f)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e])/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数',
  'transposed copy of the [s, b, V] output, fp32 logits, fp32 shift copy, fp32 log-softmax and the 16-bit logits returned (dropped with the output before backward)':
    '[s, b, V] 输出的转置副本、fp32 logits、fp32 移位副本、fp32 log-softmax，以及返回的 16 位 logits（反向前随输出释放）',
  'model-dtype logits, shift copy, [autocast fp32 cast], log-softmax (the logits leave with the model output before backward); c = 4 under autocast, else e':
    '模型精度的 logits、移位副本、[autocast 的 fp32 转换]、log-softmax（logits 随模型输出在反向前释放）；autocast 下 c = 4，否则为 e',
  's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer':
    's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例)/t]；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数',
  's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer; offloaded to CPU: 2 layers in flight on the GPU':
    's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例)/t]；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数；卸载到 CPU：GPU 上同时有 2 层在传输',
  's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + (e·(2ad + kv + 4f) + (4 + e_n)·(a + g)·d)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer, (4 + e_n)·(a + g)·d: the q / k norms’ fp32 copies and normalised tensors':
    's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + (e·(2ad + kv + 4f) + (4 + e_n)·(a + g)·d)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e])/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数，(4 + e_n)·(a + g)·d：q / k 归一化层保存的 fp32 副本与归一化后的张量',
  's·b·(2·(4 + 4 + e)·h + n_post·(4 + 4)·h + e·c·h + e·(2ad + kv + 4f)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer':
    's·b·(2·(4 + 4 + e)·h + n_post·(4 + 4)·h + e·c·h + e·(2ad + kv + 4f)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e])/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数',
  'frozen base: s·b·(2·4·h + (e·(ad + kv + ad + 3f) + 4·(a + g)·d)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·4·h + (e·(ad + kv + ad + 3f) + 4·(a + g)·d)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [+ b·a·s²·(4+e [+ e softcap])/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a) [+ (a + g)d where v is a slice of a fused qkv output], m = share of masked layers; c = AMP cast copies, n_post = norms beyond two per layer':
    's·b·(2·(4 + e_res + e)·h + n_post·(4 + e_res)·h + e·c·h + e·(2ad + kv + 4f)/t) [eager 时 + b·a·s²·(4+e [softcap 再 + e])/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）[v 是融合 qkv 输出的切片时再 + (a + g)d]，m = 带掩码的层所占比例；c = AMP 转换副本数，n_post = 每层两个之外的归一化层数',
  'frozen base: s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a) [+ (a + g)d where v is a slice of a fused qkv output]':
    '冻结的基座：s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A) [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）[v 是融合 qkv 输出的切片时再 + (a + g)d]',
  'frozen base: s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a) [+ (a + g)d where v is a slice of a fused qkv output]':
    '冻结的基座：s·b·(2·4·h + e·(ad + kv + ad + 3f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）[v 是融合 qkv 输出的切片时再 + (a + g)d]',
  'frozen base: s·b·(e_ln·h + e·(ad + kv + ad + 1f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A) [+ b·a·s²·4/t and 4·(a + 2g)·d/t per token for the fp32 q, K, V copies: SDPA math kernel]; kv = 2gd (2ad eager or masked SDPA with g < a), e_ln = 4: autocast’s fp32 copy of the LayerNorm input':
    '冻结的基座：s·b·(e_ln·h + e·(ad + kv + ad + 1f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A) [SDPA math 内核：+ b·a·s²·4/t，以及每 token 4·(a + 2g)·d/t 的 fp32 q、K、V 副本]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），e_ln = 4：autocast 为 LayerNorm 输入做的 fp32 副本',
  's·b·((e_ln + 2e)·h + e·c·h + e·(2ad + kv + 2f)/t) [+ a·s²·b·e/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies, e_ln = 4: autocast’s fp32 copy of the LayerNorm input':
    's·b·((e_ln + 2e)·h + e·c·h + e·(2ad + kv + 2f)/t) [eager 时 + a·s²·b·e/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数，e_ln = 4：autocast 为 LayerNorm 输入做的 fp32 副本',
  's·b·((e_res + 2e)·h + e·c·h + e·(2ad + kv + 2f)/t) [+ a·s²·b·(e_sm + e)/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies':
    's·b·((e_res + 2e)·h + e·c·h + e·(2ad + kv + 2f)/t) [eager 时 + a·s²·b·(e_sm + e)/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数',
  'frozen base: s·b·(2·(4 + e_res)·h + e·(ad + kv + ad + 3f)/t + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A); kv = 2gd (2ad eager or masked SDPA with g < a)':
    '冻结的基座：s·b·(2·(4 + e_res)·h + e·(ad + kv + ad + 3f)/t + Σ 适配器输入（x 一份，或每个适配器一份副本 + 掩码）+ Σ r·c_A)；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad）',
  's·b·(2·(e_res + e)·h + e·c·h + e·(2ad + kv + 2f)/t + 2h) [+ a·s²·b·(e_sm + 1 + e)/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies':
    's·b·(2·(e_res + e)·h + e·c·h + e·(2ad + kv + 2f)/t + 2h) [eager 时 + a·s²·b·(e_sm + 1 + e)/t] [掩码 SDPA 时 + m·b·s²·e]；kv = 2gd（eager 或带掩码且 g < a 的 SDPA 为 2ad），m = 带掩码的层所占比例；c = AMP 转换副本数',
  'off: k = 1': '关：k = 1',
  'on: k = 2': '开：k = 2',
  // gradients, optimizer, ZeRO / DDP
  '16-bit flatten copy + fp32 gradient': '16 位展平副本 + fp32 梯度',
  '16-bit flatten copy + fp32 single_grad_partition': '16 位展平副本 + fp32 single_grad_partition',
  '2 units gathered (current + prefetch)': '同时聚合 2 个单元（当前 + 预取）',
  'DDP gradient buckets (no gradient_as_bucket_view)': 'DDP 梯度桶（未设 gradient_as_bucket_view）',
  'IPG bucket (kept) + reduce-scatter interleave copy (backward)': 'IPG 桶（常驻）+ reduce-scatter 交错副本（反向时）',
  'IPG buckets (backward) + offload staging of the largest parameter': 'IPG 桶（反向时）+ 最大参数的卸载中转缓冲',
  'IPG buckets, allocated each backward': 'IPG 桶，每次反向时分配',
  'each gradient freed by its post-accumulate-grad hook after its step': '每个梯度在其 post-accumulate-grad 钩子完成更新后即释放',
  "the prompt's K/V in every layer (end of prefill)": '每层都持有提示词的 K/V（预填充结束时）',
  'the window in sliding layers (decoding)': '滑动窗口层只保留窗口（解码时）',
  'min(P, reuse window + prefetch) elements': 'min(P, 复用窗口 + 预取) 个元素',
  'reduce bucket': 'reduce 桶',
  'small params kept whole: ·(1 − 1/N_d) beyond the partition': '小参数整份保留：比分片多出 ·(1 − 1/N_d)',
  // image generation (core/diffusion)
  'batched: b_unet = 2·b': '合并成一批：b_unet = 2·b',
  'true CFG: a second call, same size': '真 CFG：再调用一次，规模相同',
  'upcast to fp32 for decode (force_upcast)': '解码时上转为 fp32（force_upcast）',
  'latents (b·4·(side/8)²), latent_model_input (b_unet·4·(side/8)²) and prompt embeddings (b_unet·77·cross_attention_dim)':
    '潜变量 (b·4·(side/8)²)、latent_model_input (b_unet·4·(side/8)²) 与提示词嵌入 (b_unet·77·cross_attention_dim)',
  'packed latents (b·N_img·64) and T5 embeddings (b·512·4096) in the dtype; rotary cos and sin (2·N·128 fp32)':
    '打包后的潜变量 (b·N_img·64) 与 T5 嵌入 (b·512·4096)，为模型精度；旋转位置编码的 cos 与 sin (2·N·128，fp32)',
  // runtime, placement, allocator
  'CUDA context + kernels (lazy loading)': 'CUDA 上下文 + 内核（延迟加载）',
  'HF caches decompressed K/V': 'HF 缓存的是解压后的 K/V',
  'modules placed in order while used + size ≤ ⌊W/N⌋ + 1.25·W_block (GPU 0 less the largest layer; the last GPU its free memory)':
    '按顺序放置模块，直到 已用 + 大小 ≤ ⌊W/N⌋ + 1.25·W_block（GPU 0 再减去最大的一层；最后一张 GPU 用其空闲显存）',
  'tied lm_head stored twice; held until tie_weights': '绑定的 lm_head 存了两份；保留到 tie_weights 为止',
  'the records of a run (steps longer than all before them) through the caching-allocator model': '一次训练中的“纪录步”（比之前所有步都长的步）经缓存分配器模型回放',
  'two steps through the caching-allocator model': '两步经缓存分配器模型回放',
  'Σ live tensors: segment(size) − size (2 MiB / 20 MiB / 2 MiB-rounded segments)': 'Σ 存活张量：segment(size) − size（2 MiB / 20 MiB / 按 2 MiB 取整的段）',
};

/**
 * Notes the core appends to a worded value, with their Chinese (the English is written by
 * core/training/act-saves.ts actFormula): a value missing from VALUE_ZH is looked up without its
 * notes, which are translated on their own, so a note is written here once, not in every value it
 * can follow.
 */
export const VALUE_SUFFIX_ZH: readonly (readonly [RegExp, string])[] = [
  [/ \[\+ (\d+)·f\/t: the composed MLP activation's intermediates\]$/, ' [+ $1·f/t：由 Python 算子组合的 MLP 激活函数保存的中间张量]'],
  [/ \[− (\d+)·f\/t: ReLU saves its output, which the next op saves too\]$/, ' [− $1·f/t：ReLU 保存的是输出，而下一个算子本来就保存它]'],
];

/** A worded value's Chinese and the VALUE_ZH entry it came from: its own, else its own without the appended notes. */
export function valueZh(v: string): { zh: string; key: string } | undefined {
  let key = v;
  let tail = '';
  for (;;) {
    if (Object.hasOwn(VALUE_ZH, key)) return { zh: VALUE_ZH[key] + tail, key };
    const hit = VALUE_SUFFIX_ZH.find(([re]) => re.test(key));
    if (!hit) return undefined;
    const [re, zh] = hit;
    const m = re.exec(key)!;
    tail = m[0].replace(re, zh) + tail;
    key = key.slice(0, m.index);
  }
}
