/** The value of one series in Prometheus's text format, or null when it is absent. */
export function valueOf(body: string, series: string): number | null {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}
