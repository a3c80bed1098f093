/**
 * Loading this module makes estimate() able to price training scenarios (provider.ts): the page
 * fetches it as a chunk of its own when a scenario is in training mode, the CLI and the unit-test
 * setup import it up front.
 */
import { buildTrainingSplit } from './layer-split';
import { provideTraining } from './provider';
import { buildTraining } from './terms';

provideTraining({ build: buildTraining, split: buildTrainingSplit });
