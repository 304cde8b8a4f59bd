// The name rules are registered under (`replica-guard/<rule>`) and the package version.
import pkg from '../../package.json' with { type: 'json' };

export const PLUGIN_NAME = 'replica-guard';
export const PLUGIN_VERSION: string = pkg.version;
