/** `Omit` that distributes over a union, so each member keeps its own keys. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
