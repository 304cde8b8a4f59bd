// A decorator of the project that schedules nothing.
export function Audited(action: string): MethodDecorator {
  return (_target, key) => {
    console.info(`audited ${String(key)} as ${action}`);
  };
}
