export { add, ceil, conflictingSymbols, div, evaluate, floor, max, min, mul, sub, sym, symbolValues, type Expr, type Operand } from './expr';
export { render } from './render';
export { deferFormulas, derive, type DerivationInfo } from './derivation';
