/**
 * The scanner's version, stored with every report. The same text scanned under the same version
 * gives a byte-identical report, so a stored report stays valid until this changes.
 *
 * Bump rule (docs/capability.md): the major part when the report's shape changes; the minor part
 * when a rule is added, removed or changed so that some text would get other findings or another
 * tier; the patch part for changes no report can show (speed, wording of code comments). Any
 * change to a fixture's expected findings needs at least a minor bump.
 */
export const SCANNER_VERSION = '1.1.0';
