import { errorText } from '../messages/errorText.js'

/**
 * `forkSession` checked its input and began to copy, but the target store refused the copy
 * (`stage: 'append'`) or could not make it durable (`stage: 'flush'`). The source is untouched.
 * The stores of this package take nothing of a batch they refuse, so after `'append'` the target
 * is as it was; after `'flush'` it may hold part of the copy (some lines of a file, say), which is
 * no session to continue. `cause` is what the store threw.
 */
export class ForkIncompleteError extends Error {
  override readonly name = 'ForkIncompleteError'
  readonly stage: 'append' | 'flush'
  constructor(stage: 'append' | 'flush', cause: unknown) {
    super(
      stage === 'append'
        ? `forkSession(): the target store refused the copy (${errorText(cause)}); ` +
            'nothing was forked: fix what the store says, then fork again'
        : `forkSession(): the copy could not be made durable in the target store (${errorText(cause)}); ` +
            'the target may hold part of it: delete it (the file, or the session) and fork again into an empty store',
      { cause },
    )
    this.stage = stage
  }
}
