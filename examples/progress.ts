/** A progress line for long iterations: rewritten in place on a terminal, every 250 records otherwise. */
export function progress(what: string): ((count: number) => void) & { done(count: number): void } {
  const tty = Boolean(process.stdout.isTTY);
  const show = (count: number) => {
    if (tty) process.stdout.write(`\r  … ${count} ${what}`);
    else if (count % 250 === 0) console.log(`  … ${count} ${what}`);
  };
  return Object.assign(show, {
    done: (count: number) => {
      if (tty) process.stdout.write(`\r  ${count} ${what}     \n`);
    },
  });
}
