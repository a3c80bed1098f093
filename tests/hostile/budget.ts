/**
 * Time budgets for the hostile suite. Budgets are in CPU time of this process (user + system,
 * process.cpuUsage), not wall-clock: on a shared machine wall-clock runs several times longer
 * than the work, while a quadratic case blows any budget by orders of magnitude either way.
 */
export function cpuMs<T>(f: () => T): [T, number] {
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [r, (c.user + c.system) / 1000];
}
