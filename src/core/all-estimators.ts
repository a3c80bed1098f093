/**
 * Every estimator the page loads on demand (core/training/provider.ts, core/diffusion/provider.ts, core/inference/remote-provider.ts,
 * core/inference/engine-provider.ts),
 * loaded now: for the CLI, the bench, the unit-test setup and web workers, which have their own
 * module graph and no page loader to fetch them.
 */
import './training/builders';
import './diffusion/build';
import './inference/remote-runtime';
import './inference/engines';
