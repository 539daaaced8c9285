import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { COMMON_PASSWORD_MESSAGE } from '#shared/validation/password.ts';
import { validationError } from '../../http/errors.ts';

/**
 * zxcvbn (the Dropbox estimator, TypeScript port) with its common-password, name and keyboard-pattern
 * dictionaries, which are drawn from leaked-password corpora. Built on first use: decompressing the
 * dictionaries takes ~100 ms, which a server that never changes a password should not pay at start.
 */
let estimator: ZxcvbnFactory | null = null;

function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  return estimator;
}

/**
 * Score 0–1 means under 10^6 guesses: broken within hours by an online attacker spreading guesses
 * across accounts, and in seconds offline. 'Password1!' (score 1, ~2·10^4 guesses) passes the format
 * rule but is among the first a cracker tries.
 */
export function isTooGuessable(password: string, userInputs: string[] = []): boolean {
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]).filter((input) => input.length >= 3);
  return zxcvbn().check(password, [...inputs, 'autoasesor', 'asesoria', 'asesor']).score < 2;
}

/** A 400 on the field when the password is too guessable (the format rule is the schema's job). */
export function assertStrongPassword(password: string, path: string, userInputs: string[] = []): void {
  if (isTooGuessable(password, userInputs)) throw validationError([{ path, message: COMMON_PASSWORD_MESSAGE }]);
}
