/** `medusa-plugin-lastmile/simulator`: the simulator package (`packages/simulator`), re-exported (decision 34). */
export * from "medusa-plugin-lastmile-simulator"
