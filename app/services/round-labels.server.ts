import type { Logger } from "pino";
import { roundLabel } from "~/domain/nol/rounds";

/** Each unknown round value is logged once per place and process, however often it is read. */
const LOGGED_LIMIT = 1_000;
const logged = new WeakMap<Logger, Set<string>>();

/**
 * The label of a round read from the database (spec §4 "Round naming"), as "Round N" when
 * the value is not one the spec names. The domain's warning about such a value is logged
 * with where it was met, so that a notice stored with a round outside the spec is seen.
 */
export function labelOfStoredRound(logger: Logger, round: unknown, where: string): string {
  const label = roundLabel(round);
  if (label.label !== null) return label.label;
  const seen = logged.get(logger) ?? new Set<string>();
  logged.set(logger, seen);
  const key = `${where}:${JSON.stringify(round)}`;
  if (!seen.has(key) && seen.size < LOGGED_LIMIT) {
    seen.add(key);
    logger.warn({ round, where }, label.warning);
  }
  return `Round ${String(round)}`;
}
