// How a service turns the rules on: the plugin's recommended config.
import replicaGuard from 'replica-guard/eslint-plugin';

export default [replicaGuard.configs.recommended];
