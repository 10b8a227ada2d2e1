#!/usr/bin/env node
/** The plugin's `lastmile-simulator` bin: the simulator package's own command (decision 34). */
import "medusa-plugin-lastmile-simulator/cli"
