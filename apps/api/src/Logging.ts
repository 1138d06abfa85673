/**
 * Logs are one JSON object per line (what log collectors parse), at the configured level.
 */
import { Layer, Logger, type LogLevel } from "effect"

export const loggingLayer = (level: LogLevel.LogLevel) =>
  Layer.merge(Logger.json, Logger.minimumLogLevel(level))
