import { describe, expect, test } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';
import { checkSnippet, savesSnapshot, SNAPSHOT_FILE } from '../../../src/ui/calculator/check-snippet';

function snippet(p: Partial<Scenario>): string {
  const s = { ...defaultScenario(), ...p };
  const r = estimate(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return checkSnippet(s, r.value);
}

describe('"Check it on your GPU" sets up the scenario it estimates', () => {
  test('transformers inference: dtype, attention kernel, batch × prompt, exactly gen new tokens, both torch counters', () => {
    const py = snippet({ model: 'meta-llama/Llama-2-7b-hf', weights: 'bf16', attn: 'flash', batch: 2, prompt: 512, gen: 64 });
    expect(py).toContain('from_pretrained(MODEL, torch_dtype=torch.bfloat16, device_map="cuda", attn_implementation="flash_attention_2")');
    expect(py).toContain('(2, 512)');
    expect(py).toContain('max_new_tokens=64, min_new_tokens=64');
    expect(py).toContain('torch.cuda.max_memory_allocated()');
    expect(py).toContain('torch.cuda.max_memory_reserved()');
    // the estimate counts loading too, so the script must not reset the peak after loading
    expect(py).not.toContain('reset_peak_memory_stats');
  });

  test('bitsandbytes 4-bit: quant type, double quantization and the chosen compute dtype (transformers BitsAndBytesConfig names)', () => {
    const py = snippet({ weights: 'nf4', bnbCompute: 'bf16' });
    expect(py).toContain('BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)');
  });

  test('fp4 writes double quantization off, as the estimate assumes by default (BitsAndBytesConfig default); double-quant=on writes it on', () => {
    expect(snippet({ weights: 'fp4' })).toContain('bnb_4bit_quant_type="fp4", bnb_4bit_use_double_quant=False,');
    expect(snippet({ weights: 'fp4', doubleQuant: 'on' })).toContain('bnb_4bit_quant_type="fp4", bnb_4bit_use_double_quant=True,');
    expect(snippet({ weights: 'nf4', doubleQuant: 'off' })).toContain('bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=False,');
  });

  test('QLoRA training: PEFT LoraConfig with the rank, dropout and Llama module names; AMP autocast; fused AdamW; accumulation', () => {
    const py = snippet({
      mode: 'training',
      method: 'qlora',
      weights: 'nf4',
      precision: 'amp-bf16',
      loraRank: 16,
      loraDropout: 0.05,
      loraTargets: ['q', 'v', 'down'],
      optimImpl: 'fused',
      gradAccum: 4,
      gradCkpt: 'full',
    });
    expect(py).toContain('LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05, target_modules=["q_proj", "v_proj", "down_proj"]');
    expect(py).toContain('torch.autocast("cuda", dtype=torch.bfloat16)');
    expect(py).toContain('torch.optim.AdamW((p for p in model.parameters() if p.requires_grad), lr=1e-5, fused=True)');
    expect(py).toContain('for micro in range(4):');
    expect(py).toContain('model.gradient_checkpointing_enable()');
    expect(py).toContain('model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)');
  });

  test('GPTQ: the kernel the estimate assumes, by transformers GPTQConfig loading arguments; training without ExLlama (no backward)', () => {
    const v1 = snippet({ model: 'meta-llama/Llama-2-7b-hf', weights: 'gptq-int4' });
    expect(v1).toContain('from transformers import AutoModelForCausalLM, GPTQConfig');
    expect(v1).toContain('quantization_config=GPTQConfig(bits=4, exllama_config={"version": 1})');
    expect(snippet({ model: 'meta-llama/Llama-2-7b-hf', weights: 'gptq-int4', gptqKernel: 'exllamav2', descAct: 'on' })).toContain(
      'exllama_config={"version": 2}), torch_dtype=torch.float16  # point MODEL at the GPTQ checkpoint (group_size 128, desc_act True',
    );
    expect(snippet({ model: 'meta-llama/Llama-2-7b-hf', weights: 'gptq-int8' })).toContain('GPTQConfig(bits=8, use_exllama=False)');
    expect(snippet({ mode: 'training', method: 'qlora', weights: 'gptq-int4' })).toContain('GPTQConfig(bits=4, use_exllama=False)');
  });

  test('lora-save: PEFT modules_to_save with the Llama module names', () => {
    expect(snippet({ mode: 'training', method: 'lora', loraSave: 'embed,head' })).toContain('modules_to_save=["embed_tokens", "lm_head"]');
  });

  test('kbit-prep off or a GPTQ base: no prepare_model_for_kbit_training', () => {
    expect(snippet({ mode: 'training', method: 'qlora', weights: 'nf4', kbitPrep: 'off' })).not.toContain('prepare_model_for_kbit_training');
    expect(snippet({ mode: 'training', method: 'qlora', weights: 'gptq-int4' })).not.toContain('prepare_model_for_kbit_training');
  });

  test('what one script cannot reproduce is named, not silently dropped', () => {
    const py = snippet({ mode: 'training', gpus: 8, zero: 3, compile: 'inductor', lossChunks: 8 });
    expect(py).toContain('multi-GPU (gpus=8, zero=3');
    expect(py).toContain('torch.compile');
    expect(py).toContain('8 chunks');
  });

  test("vLLM and llama.cpp get their own command lines with the scenario's settings", () => {
    expect(snippet({ engine: 'vllm', gpuUtil: 0.85, prompt: 1000, gen: 24 })).toContain('--gpu-memory-utilization 0.85 --max-model-len 1024');
    expect(snippet({ engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'q8_0', prompt: 4000, gen: 96 })).toMatch(/-c 4096 .*-ctk q8_0 -ctv q8_0/);
  });

  test('LoRA keeps the frozen base in its storage format; full fine-tuning under AMP holds fp32 parameters', () => {
    expect(snippet({ mode: 'training', method: 'lora', weights: 'bf16', precision: 'amp-bf16' })).toContain('torch_dtype=torch.bfloat16');
    expect(snippet({ mode: 'training', method: 'full', precision: 'amp-bf16' })).toContain('torch_dtype=torch.float32');
  });

  describe('it also records the step and saves a memory snapshot for the Allocator lab (issue #13 §4)', () => {
    // torch.cuda.memory._record_memory_history(max_entries=…) before the step, _dump_snapshot(file) after it
    // (PyTorch's "Understanding CUDA Memory Usage" guide); the measurements printed stay the two counters.
    const RECORD = 'torch.cuda.memory._record_memory_history(max_entries=100000)';
    const DUMP = `torch.cuda.memory._dump_snapshot("${SNAPSHOT_FILE}")`;
    const lines = (py: string) => py.split('\n');
    const at = (py: string, start: string) => lines(py).findIndex((l) => l.trimStart().startsWith(start));

    test('inference: recording starts after loading and before generate; the snapshot is saved after the counters', () => {
      const py = snippet({ model: 'meta-llama/Llama-2-7b-hf', weights: 'bf16' });
      expect(at(py, 'model = AutoModelForCausalLM')).toBeLessThan(at(py, RECORD));
      expect(at(py, RECORD)).toBeLessThan(at(py, 'model.generate('));
      expect(at(py, 'print("reserved  MiB"')).toBeLessThan(at(py, DUMP));
      expect(py).toContain(`print("memory snapshot saved to ${SNAPSHOT_FILE}: drop it into the calculator's Allocator lab (Simulator, Import)")`);
    });

    test('training: recording covers both optimizer steps', () => {
      const py = snippet({ mode: 'training', method: 'lora' });
      expect(at(py, RECORD)).toBeLessThan(at(py, 'for step in range(2):'));
      expect(at(py, 'opt.zero_grad(')).toBeLessThan(at(py, DUMP));
    });

    test('the printed measurements are unchanged: the two counters with their estimates, then only the snapshot line', () => {
      const s = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf' };
      const r = estimate(s);
      if (!r.ok) throw new Error('estimate');
      const prints = lines(checkSnippet(s, r.value)).filter((l) => l.trimStart().startsWith('print('));
      expect(prints).toEqual([
        `print("allocated MiB", torch.cuda.max_memory_allocated() / 2**20)  # estimate: ${Math.round(r.value.allocatedBytes / 2 ** 20)}`,
        `print("reserved  MiB", torch.cuda.max_memory_reserved() / 2**20)   # estimate: ${Math.round(r.value.reservedBytes / 2 ** 20)}`,
        `print("memory snapshot saved to ${SNAPSHOT_FILE}: drop it into the calculator's Allocator lab (Simulator, Import)")`,
      ]);
    });

    test('the vLLM and llama.cpp command lines run no PyTorch of ours: no snapshot promised', () => {
      for (const engine of ['vllm', 'llama.cpp'] as const) {
        const s = { ...defaultScenario(), engine, weights: engine === 'llama.cpp' ? ('gguf-q4_k_m' as const) : ('bf16' as const) };
        expect(savesSnapshot(s)).toBe(false);
        expect(snippet(s)).not.toContain('_dump_snapshot');
      }
      expect(savesSnapshot(defaultScenario())).toBe(true);
    });
  });
});
