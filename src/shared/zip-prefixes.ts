import { stateName, type UsStateCode } from './us-states';

/**
 * The places each 3-digit ZIP prefix delivers to: [first, last, places]. From the USPS list of
 * 3-digit ZIP prefixes (Domestic Mail Manual, L002), cross-checked ZIP by ZIP against the CC0
 * `zip-state` package 1.0.3. Unused prefixes between two of one state's ranges are that state's,
 * so a newly opened prefix is not refused; a prefix with a second place lists it (06390 is
 * Fishers Island, NY; 20500 the White House, DC; 72643 MO; 73960 TX; 83414 WY; 96799 American
 * Samoa; 96950-2 the Northern Marianas). AA, AE and AP are the military post offices.
 */
const RANGES: readonly (readonly [string, string, string])[] = [
  ['005', '005', 'NY'],
  ['006', '007', 'PR'],
  ['008', '008', 'VI'],
  ['009', '009', 'PR'],
  ['010', '027', 'MA'],
  ['028', '029', 'RI'],
  ['030', '038', 'NH'],
  ['039', '049', 'ME'],
  ['050', '054', 'VT'],
  ['055', '055', 'MA'],
  ['056', '059', 'VT'],
  ['060', '062', 'CT'],
  ['063', '063', 'CT NY'],
  ['064', '069', 'CT'],
  ['070', '089', 'NJ'],
  ['090', '098', 'AE'],
  ['100', '149', 'NY'],
  ['150', '196', 'PA'],
  ['197', '199', 'DE'],
  ['200', '200', 'DC'],
  ['201', '201', 'VA'],
  ['202', '204', 'DC'],
  ['205', '205', 'MD DC VA'],
  ['206', '219', 'MD'],
  ['220', '246', 'VA'],
  ['247', '268', 'WV'],
  ['270', '289', 'NC'],
  ['290', '299', 'SC'],
  ['300', '319', 'GA'],
  ['320', '339', 'FL'],
  ['340', '340', 'AA'],
  ['341', '349', 'FL'],
  ['350', '369', 'AL'],
  ['370', '385', 'TN'],
  ['386', '397', 'MS'],
  ['398', '399', 'GA'],
  ['400', '427', 'KY'],
  ['430', '459', 'OH'],
  ['460', '479', 'IN'],
  ['480', '499', 'MI'],
  ['500', '528', 'IA'],
  ['530', '549', 'WI'],
  ['550', '567', 'MN'],
  ['569', '569', 'DC'],
  ['570', '577', 'SD'],
  ['580', '588', 'ND'],
  ['590', '599', 'MT'],
  ['600', '629', 'IL'],
  ['630', '658', 'MO'],
  ['660', '679', 'KS'],
  ['680', '693', 'NE'],
  ['700', '714', 'LA'],
  ['716', '725', 'AR'],
  ['726', '726', 'AR MO'],
  ['727', '729', 'AR'],
  ['730', '731', 'OK'],
  ['733', '733', 'TX'],
  ['734', '738', 'OK'],
  ['739', '739', 'OK TX'],
  ['740', '749', 'OK'],
  ['750', '799', 'TX'],
  ['800', '816', 'CO'],
  ['820', '831', 'WY'],
  ['832', '833', 'ID'],
  ['834', '834', 'ID WY'],
  ['835', '838', 'ID'],
  ['840', '847', 'UT'],
  ['850', '865', 'AZ'],
  ['870', '884', 'NM'],
  ['885', '885', 'TX'],
  ['889', '898', 'NV'],
  ['900', '961', 'CA'],
  ['962', '966', 'AP'],
  ['967', '967', 'HI AS'],
  ['968', '968', 'HI'],
  ['969', '969', 'GU MP'],
  ['970', '979', 'OR'],
  ['980', '994', 'WA'],
  ['995', '999', 'AK'],
];

const MILITARY = new Set(['AA', 'AE', 'AP']);

/** The places (USPS codes) a ZIP code's first three digits deliver to; [] for an unused prefix. */
export function zipPlaces(zip: string): string[] {
  const prefix = zip.slice(0, 3);
  const range = RANGES.find(([first, last]) => prefix >= first && prefix <= last);
  return range ? range[2].split(' ') : [];
}

/**
 * Why a 5-digit ZIP code cannot be in `state` (a code of US_STATES), in words for the field;
 * null when its prefix delivers there.
 */
export function zipStateMismatch(zip: string, state: UsStateCode): string | null {
  const places = zipPlaces(zip);
  if (places.includes(state)) return null;
  const chosen = stateName(state) ?? state;
  const prefix = zip.slice(0, 3);
  if (places.length === 0) return `no US ZIP code starts with ${prefix}: check the ZIP code`;
  if (places.every((p) => MILITARY.has(p))) {
    return `${zip} is a military post office (APO/FPO/DPO) ZIP code, not one in ${chosen}: check the ZIP code`;
  }
  const names = places.flatMap((p) => stateName(p) ?? []).join(' or ');
  return `${zip} is a ${names} ZIP code, not one in ${chosen}: check the ZIP code or the state`;
}
