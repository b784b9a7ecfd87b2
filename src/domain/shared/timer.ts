/** Arms a one-shot timer that does not keep the process alive; answers its cancel. Workers take one so tests can fire their ticks themselves. */
export type Timer = (fire: () => void, ms: number) => () => void;

export const realTimer: Timer = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};
