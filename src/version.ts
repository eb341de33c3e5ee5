/** The action's version, recorded in the annotations of every branch it creates (kept equal to package.json's by a unit test). */
export const ACTION_VERSION = '1.0.0'
