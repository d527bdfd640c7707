// Types of validators.generated.js (ajv standalone code written by scripts/registryValidators.mjs).
import type { ValidateFunction } from 'ajv';

export declare const registry: ValidateFunction;
export declare const agent: ValidateFunction;
