/**
 * Model failover (the `004` design's): a task whose model is down goes on with the next model it was
 * given (a role's `fallbackModels`, the run's `--fallback-model`s), instead of failing the run. The agent
 * loop does not know: the same request goes to the next model, and the stream says so (`model-switch`).
 */
import { raceWithSignal, throwIfStopped } from '../abort.js';
import { errorMessage } from '../errors.js';
import { describeModel } from './create-model.js';
import { isOutage } from './failover-policy.js';
import { withoutImages } from './image-parts.js';
import { type Model, type ModelRequest, type ModelStreamEvent, stopsAtOnce } from './types.js';

export interface FailoverOptions {
  /** Which failures move on to the next model. Default `isOutage` (5xx, 529, 429, connection, timeouts). */
  isOutage?: (error: unknown) => boolean;
}

/**
 * Models in order of preference. A request goes to the model in use (the first, at the start); when it
 * fails with an outage after that model's own retries, the same request goes to the next model, whose
 * answer takes the failed one's place (a partial answer already streamed is void: `model-switch`). The
 * model that answered stays in use for later requests, so a task does not wait out a dead model's
 * retries at every turn: make one per task (`withFallbacks` does). When the last model fails too, its
 * error is the request's. `provider`, `modelId` and `acceptsImages` are the model in use's.
 */
export class FailoverModel implements Model {
  readonly models: readonly Model[];
  private active = 0;
  private readonly outage: (error: unknown) => boolean;

  constructor(models: readonly Model[], options: FailoverOptions = {}) {
    if (models.length === 0) throw new Error('FailoverModel needs at least one model');
    this.models = [...models];
    this.outage = options.isOutage ?? isOutage;
  }

  get provider(): string {
    return this.inUse.provider;
  }

  get modelId(): string {
    return this.inUse.modelId;
  }

  get acceptsImages(): boolean {
    return this.inUse.acceptsImages === true;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return new FailoverStream(this, request, this.active, this.outage);
  }

  /** A request moved on to `index`: later requests start there (never back: the earlier model was down). */
  movedTo(index: number): void {
    this.active = Math.max(this.active, index);
  }

  private get inUse(): Model {
    return this.models[this.active] as Model;
  }
}

/**
 * `primary` with `fallbacks` after it, as one model (`primary` itself when there are none). Chains are
 * flattened, each model once, where it first appears: first the models asked for, in order, then the
 * fallbacks each brought along, so a role's own `fallbackModels` come before the run's `--fallback-model`s.
 * Always a new `FailoverModel`, whose choice of model is its own task's.
 */
export function withFallbacks(primary: Model, fallbacks: readonly Model[]): Model {
  const chains = [primary, ...fallbacks].map((model) => (model instanceof FailoverModel ? model.models : [model]));
  const seen = new Set<string>();
  const models = [...chains.map((chain) => chain[0] as Model), ...chains.flatMap((chain) => chain.slice(1))].filter((model) => {
    const name = describeModel(model);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  return models.length === 1 ? (models[0] as Model) : new FailoverModel(models);
}

/** "model X failed (why); continuing on Y", for the transcript. */
function failoverNotice(failed: Model, next: Model, error: unknown, partial: boolean): string {
  const discarded = partial ? ' (its partial answer is discarded: the turn starts over)' : '';
  return `model ${describeModel(failed)} failed (${errorMessage(error)})${continuingOn}${describeModel(next)}${discarded}`;
}

const continuingOn = '; continuing on ';

/** True for a transcript notice of a failover (the CLI says those on stderr as they happen). */
export function isFailoverNotice(text: string): boolean {
  return text.startsWith('model ') && text.includes(continuingOn);
}

const ended: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One request across the models, written out rather than as a generator, so the events of a model that
 * answers pass through at the cost of one step (B2 in docs/performance.md). Every wait ends at once on a
 * stop: the inner stream's own when it promises so (`stopsAtOnce`), else a race with the signal.
 */
class FailoverStream implements AsyncIterableIterator<ModelStreamEvent> {
  readonly [stopsAtOnce] = true;
  private current: AsyncIterator<ModelStreamEvent> | undefined;
  private guarded = false;
  /** Something of the current model's answer has been handed on. */
  private handedOn = false;
  /** The `model-switch` event still to hand on. */
  private switched: ModelStreamEvent | undefined;
  private over = false;

  constructor(
    private readonly owner: FailoverModel,
    private readonly request: ModelRequest,
    private index: number,
    private readonly outage: (error: unknown) => boolean,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ModelStreamEvent>> {
    for (;;) {
      if (this.over) return ended;
      const switched = this.switched;
      if (switched) {
        this.switched = undefined;
        return { done: false, value: switched };
      }
      try {
        throwIfStopped(this.request.signal);
        const iterator = (this.current ??= this.open());
        const step = await (this.guarded ? raceWithSignal(iterator.next(), this.request.signal) : iterator.next());
        if (step.done) {
          this.over = true;
          this.current = undefined;
          return ended;
        }
        this.handedOn = true;
        return step;
      } catch (error) {
        this.moveOn(error);
      }
    }
  }

  /** The caller stopped reading: close the current request. Not awaited, as a stuck read must not hold the caller. */
  async return(): Promise<IteratorResult<ModelStreamEvent>> {
    this.over = true;
    this.close();
    return ended;
  }

  private open(): AsyncIterator<ModelStreamEvent> {
    const model = this.owner.models[this.index] as Model;
    // Images go only to a model that sees them; a fallback that does not gets the notes the loop writes.
    const request = model.acceptsImages
      ? this.request
      : { ...this.request, messages: withoutImages(this.request.messages, describeModel(model)).messages };
    const iterator = model.stream(request)[Symbol.asyncIterator]();
    this.guarded = (iterator as Partial<Record<typeof stopsAtOnce, boolean>>)[stopsAtOnce] !== true;
    return iterator;
  }

  /** Goes on with the next model after an outage; otherwise (a stop, a mistake to fix, no model left) throws. */
  private moveOn(error: unknown): void {
    this.close();
    const failed = this.owner.models[this.index] as Model;
    const next = this.owner.models[this.index + 1];
    if (this.request.signal.aborted || next === undefined || !this.outage(error)) {
      this.over = true;
      throw error;
    }
    this.index += 1;
    this.owner.movedTo(this.index);
    this.switched = { type: 'model-switch', model: describeModel(next), notice: failoverNotice(failed, next, error, this.handedOn) };
    this.handedOn = false;
  }

  private close(): void {
    const current = this.current;
    this.current = undefined;
    current?.return?.().catch(() => {});
  }
}
