import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { COMMON_PASSWORD_MESSAGE } from '#shared/validation/password.ts';
import { validationError } from '../../http/errors.ts';

/**
 * zxcvbn (the Dropbox estimator, TypeScript port) with its common-password, name and keyboard-pattern
 * dictionaries, which are drawn from leaked-password corpora. Built on first use: decompressing the
 * dictionaries takes ~100 ms and their code is 0.5 MB, which a server that never changes a password
 * should not load at start; both are imported with the first password checked.
 */
let estimator: Promise<ZxcvbnFactory> | null = null;

function zxcvbn(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, common]) => new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs }),
  );
  return estimator;
}

/**
 * Score 0–1 means under 10^6 guesses: broken within hours by an online attacker spreading guesses
 * across accounts, and in seconds offline. 'Password1!' (score 1, ~2·10^4 guesses) passes the format
 * rule but is among the first a cracker tries.
 */
export async function isTooGuessable(password: string, userInputs: string[] = []): Promise<boolean> {
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]).filter((input) => input.length >= 3);
  return (await zxcvbn()).check(password, [...inputs, 'autoasesor', 'asesoria', 'asesor']).score < 2;
}

/** A 400 on the field when the password is too guessable (the format rule is the schema's job). */
export async function assertStrongPassword(password: string, path: string, userInputs: string[] = []): Promise<void> {
  if (await isTooGuessable(password, userInputs)) throw validationError([{ path, message: COMMON_PASSWORD_MESSAGE }]);
}
