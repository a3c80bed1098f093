/**
 * The published measurements shipped with the project (fixtures/measured-dev.json: the one copy,
 * read by the validation test, the page's error bands and its Accuracy view), in fixture order.
 */
import fixture from './fixtures/measured-dev.json';
import type { Row } from './mapping';

export const MEASURED_ROWS: readonly Row[] = fixture;
