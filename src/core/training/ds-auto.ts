/**
 * HF Trainer's "auto" DeepSpeed bucket settings from the hidden size h (transformers
 * integrations/deepspeed.py `HfTrainerDeepSpeedConfig.trainer_config_finalize`): reduce_bucket_size
 * h·h, stage3_prefetch_bucket_size 0.9·h·h (DeepSpeed's int field takes its whole part),
 * stage3_param_persistence_threshold 10·h. A module of its own, without imports, so the page's form
 * can show these values without loading the training estimators.
 */
export function hfAutoBuckets(hidden: number): { reduceBucket: number; prefetchBucket: number; persistThreshold: number } {
  const h = Math.max(1, hidden);
  return { reduceBucket: h * h, prefetchBucket: Math.floor(0.9 * h * h), persistThreshold: 10 * h };
}
