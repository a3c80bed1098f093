/**
 * Chinese for the core's message codes (FieldError / Message `code`). `{key}` is the field the
 * error belongs to; other `{…}` are the message's params. Codes missing here show the English text.
 */
export const CORE_ZH: Record<string, string> = {
  // config.json reader (src/core/model/fields.ts, config.ts)
  missing: '缺少字段 {key}',
  'not-integer': '{key}：应为正整数',
  'invalid-json': 'config：不是合法的 JSON',
  'not-object': 'config：不是 JSON 对象',
  // scenario schema and URL (src/core/scenario, src/state/url-codec.ts)
  'invalid-value': '{key}：取值无效',
  'out-of-range': '{key}：超出允许范围',
  'unknown-key': '无法识别的设置 {key}',
  'unknown-preset': '未知的预设模型',
  'unknown-gpu': '未知的 GPU',
  'invalid-count': '{key}：参数量格式无效',
  'missing-key': '缺少 {key}',
  'too-many-keys': '链接中的设置过多，只读取了前面一部分',
  malformed: '链接中有无法解析的片段',
  'newer-version': '此链接由更新的版本生成，部分设置可能无法识别',
  'unused-key': '{key} 在当前模式下不起作用',
  'exceeds-context': 'token 数超出模型的最大上下文',
  'gguf-dequantized': 'transformers 载入 GGUF 权重时会反量化为 16/32 位',
  incompatible: '{key} 与其他设置不兼容',
  'capacity-range': '容量必须在 1 MiB 到 64 TiB 之间',
  // estimate checks (src/core/estimate-checks.ts)
  'grid-mismatch': 'GPU 总数必须是 tp × pp 的整数倍',
  'qlora-needs-4bit': 'QLoRA 在 bitsandbytes 4 位底座上训练适配器：请选择 nf4 或 fp4 权重',
  'full-needs-dense': '全量微调要更新每个权重，量化存储无法训练：请选择 fp32、fp16 或 bf16',
  'gguf-not-trainable': 'GGUF 文件仅用于 llama.cpp 推理，PyTorch 训练无法使用',
  'offload-needs-zero': '优化器卸载即 ZeRO-Offload：请把 ZeRO 阶段设为 1、2 或 3',
  'offload-params-needs-zero3': '参数卸载需要 ZeRO 阶段 3',
  'flash-needs-16bit': 'FlashAttention 只支持 fp16/bf16',
  'llamacpp-format': 'llama.cpp 载入 GGUF 文件：请选择 gguf-* 格式',
  'llamacpp-kv': 'llama.cpp 的 KV 类型为 f32、f16、bf16、q8_0 和 q4_0',
  'kv-llamacpp-only': 'q8_0/q4_0 KV 块只存在于 llama.cpp',
  'gguf-needs-llamacpp': '此引擎不能运行 GGUF 量化权重：请选择 llama.cpp 引擎',
  'vllm-kv': 'vLLM 的 KV 缓存类型为 auto（模型精度）或 fp8',
  'arch-dim': '模型结构字段必须是正整数',
  'arch-number': '模型结构字段必须是有限的非负数',
  'arch-kv-heads': 'KV 头数不能超过注意力头数',
  'tp-heads': '张量并行度必须整除注意力头数',
  'pp-layers': '流水线并行度不能超过层数',
  // estimate notes (src/core/inference, training, model/quick.ts)
  'vllm.kv-short': 'KV 缓存池只能容纳 {kvTokens} 个 token，少于批大小 × (提示词 + 生成) = {needTokens}：请求会排队或被抢占。',
  'vllm.no-gpu': '未选择 GPU：vLLM 会按 gpu_memory_utilization 占满设备；这里显示的 KV 池只是本批次所需。',
  'llamacpp.v-f16': '量化的 V 缓存需要开启 flash attention（-fa），否则 V 仍为 f16。',
  'training.paged': '分页优化器状态位于 CUDA 统一内存中，显存紧张时可能换出到主机内存。',
  'training.peak-not-sum': '激活值释放时梯度逐步产生：峰值是持久状态 + max(激活 + logits, 梯度)，而不是所有项之和。',
  'inference.peak-not-sum': '预填充的临时张量在解码结束前已释放：峰值是权重 + max(提示词 KV + 预填充临时量, 完整 KV + 解码步)，而不是所有项之和。',
  'model.shape-guess': '只给了参数量：模型形状（h={hidden}、L={layers}、头数 {heads}、KV 头数 {kvHeads}）按 Llama 风格推测。',
  'term.guessed-shape': '形状由参数量推测；选择预设模型可得到精确数值。',
};
