/** The model catalogue as data/models.json keeps it: each row's config.json copy and its official counts. */
import { readFileSync } from 'node:fs';

export interface CatalogueRow {
  id: string;
  config: Record<string, unknown>;
  publishedParams: number | null;
  /** the reference's own computation reproduced the exact count (computed_matches_exact) */
  exactChecked: boolean;
}

interface Raw {
  id: string;
  config: Record<string, unknown>;
  official_params?: { exact?: number | null };
  computed_matches_exact?: boolean;
}

export const CATALOGUE: readonly CatalogueRow[] = (JSON.parse(readFileSync('data/models.json', 'utf8')) as Raw[]).map((r) => ({
  id: r.id,
  config: r.config,
  publishedParams: r.official_params?.exact ?? null,
  exactChecked: r.computed_matches_exact === true,
}));
