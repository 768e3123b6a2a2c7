/** A request a fake provider received. */
export type ProviderCall = {
  /** Where the request went: the provider's host, or the local one its *_API_BASE setting names. */
  origin: string;
  method: string;
  path: string;
};

/**
 * What every fake provider keeps: the requests it was sent, for tests to read, and the
 * failures a test asked the next requests to meet.
 */
export class FakeProvider<Call extends ProviderCall, Failure extends string> {
  readonly calls: Call[] = [];
  private failures: Array<{ failure: Failure; path: string | undefined }> = [];

  /** Forgets the requests and the failures still waiting. */
  protected resetRequests() {
    this.calls.length = 0;
    this.failures = [];
  }

  /** The next `times` requests (to `path`) fail. */
  failNext(failure: Failure, { times = 1, path }: { times?: number; path?: string } = {}) {
    for (let i = 0; i < times; i++) this.failures.push({ failure, path });
  }

  /** Forgets the failures still waiting, keeping what the provider holds. */
  clearFailures() {
    this.failures = [];
  }

  /** Keeps a request as received; returns the failure it is to meet, if a test asked for one. */
  receive(call: Call): Failure | undefined {
    this.calls.push(call);
    return this.takeFailure(call.path);
  }

  private takeFailure(path: string): Failure | undefined {
    const index = this.failures.findIndex((f) => f.path === undefined || f.path === path);
    return index < 0 ? undefined : this.failures.splice(index, 1)[0]!.failure;
  }

  callsTo(method: string, path: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }
}
