import { useState, type CSSProperties } from 'react';
import { HEX_COLOR_PATTERN, type PartnerSettings } from '@shared/api';
import { formatDate } from '@renderer/lib/dates';
import { formatCount, plural } from '@renderer/lib/format';
import {
  DOSE_TIMES,
  dailyPills,
  pillsAtEachTime,
  type ScheduleContent,
  type ScheduleLine,
} from './schedule-rows';

/** A dose in the grid: the number, or a dash read as "none" (never a colour). */
function Dose({ n }: { n: number }) {
  if (n > 0) return <>{formatCount(n)}</>;
  return (
    <>
      <span aria-hidden="true">–</span>
      <span className="visually-hidden">none</span>
    </>
  );
}

function LineRow({ line }: { line: ScheduleLine }) {
  const daily = dailyPills(line);
  return (
    <tr>
      <th scope="row">
        <span className="sheet-product">{line.name}</span>
        {line.dose && <span className="sheet-pack">Each dose: {line.dose}</span>}
      </th>
      {line.administration ? (
        <>
          {DOSE_TIMES.map((t) => (
            <td key={t.key} className="sheet-dose">
              <Dose n={line.administration![t.key]} />
            </td>
          ))}
          <td className="sheet-dose sheet-daily">{formatCount(daily ?? 0)}</td>
        </>
      ) : (
        <td colSpan={DOSE_TIMES.length + 1} className="sheet-as-directed">
          Take as directed on the label
        </td>
      )}
    </tr>
  );
}

/** The clinic's logo, or nothing when it cannot be shown (the clinic's name is printed beside it). */
function Logo({ src, clinic }: { src: string; clinic: string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !/^https:\/\//i.test(src)) return null;
  return (
    <img
      className="sheet-logo"
      src={src}
      alt={`${clinic} logo`}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

const colour = (value: string | null | undefined): string | undefined =>
  value && HEX_COLOR_PATTERN.test(value) ? value : undefined;

/**
 * The printable schedule: the clinic's branding, the patient, the days, and the grid of pills at
 * each time of day. Read on paper in black and white: numbers and words carry every meaning; the
 * clinic's colours only draw its rules.
 */
export function DosingSheet({
  content,
  branding,
  startDay,
  lastDay,
  preparedOn,
}: {
  content: ScheduleContent;
  branding: PartnerSettings | null;
  /** "2026-11-26", or null to leave a blank to write on. */
  startDay: string | null;
  lastDay: string | null;
  preparedOn: Date;
}) {
  const clinic = branding?.name ?? '';
  const totals = pillsAtEachTime(content.lines);
  const anyDoses = content.lines.some((l) => l.administration);
  const style = {
    '--sheet-primary': colour(branding?.primaryColor),
    '--sheet-secondary': colour(branding?.secondaryColor),
  } as CSSProperties;
  const contact = [
    branding?.phone && `call ${branding.phone}`,
    branding?.supportEmail && `email ${branding.supportEmail}`,
    branding?.website && `visit ${branding.website}`,
  ].filter(Boolean);
  return (
    <article className="dosing-sheet" aria-labelledby="sheet-title" style={style}>
      <header className="sheet-head">
        <div className="sheet-brand">
          {branding?.logo && <Logo src={branding.logo} clinic={clinic} />}
          <div>
            {clinic && <p className="sheet-clinic">{clinic}</p>}
            {branding?.phone && <p className="sheet-phone">Phone {branding.phone}</p>}
          </div>
        </div>
        <h2 id="sheet-title" className="sheet-title">
          Daily dosing schedule
        </h2>
      </header>

      <dl className="sheet-facts">
        <div>
          <dt>Patient</dt>
          <dd className="sheet-patient">{content.patientName}</dd>
        </div>
        <div>
          <dt>Patient ID</dt>
          <dd>{content.patientId}</dd>
        </div>
        <div>
          <dt>Start date</dt>
          <dd>{startDay ? formatDate(startDay) : <span className="sheet-blank">&nbsp;</span>}</dd>
        </div>
        <div>
          <dt>Days supply</dt>
          <dd>
            {content.daysSupply !== null
              ? plural(content.daysSupply, 'day')
              : 'As decided for the subscription'}
            {lastDay && <span className="sheet-until"> (through {formatDate(lastDay)})</span>}
          </dd>
        </div>
      </dl>

      <table className="sheet-grid">
        <caption>Pills to take at each time of day, every day</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            {DOSE_TIMES.map((t) => (
              <th key={t.key} scope="col" className="sheet-dose">
                {t.label}
              </th>
            ))}
            <th scope="col" className="sheet-dose">
              Per day
            </th>
          </tr>
        </thead>
        <tbody>
          {content.lines.map((line, i) => (
            <LineRow key={`${line.productId}-${i}`} line={line} />
          ))}
        </tbody>
        {anyDoses && (
          <tfoot>
            <tr>
              <th scope="row">Pills at each time</th>
              {DOSE_TIMES.map((t) => (
                <td key={t.key} className="sheet-dose">
                  <Dose n={totals[t.key]} />
                </td>
              ))}
              <td className="sheet-dose sheet-daily">
                {formatCount(DOSE_TIMES.reduce((sum, t) => sum + totals[t.key], 0))}
              </td>
            </tr>
          </tfoot>
        )}
      </table>

      <p className="sheet-legend">
        Numbers are pills (or capsules, softgels) to take at that time; a dash means none. Keep
        taking each product until the supply runs out unless your clinician says otherwise.
      </p>

      <footer className="sheet-foot">
        {contact.length > 0 && (
          <p>
            Questions about your supplements? {clinic ? `Contact ${clinic}: ` : 'Contact us: '}
            {contact.join(', ')}.
          </p>
        )}
        <p className="sheet-prepared">Prepared {formatDate(preparedOn)}</p>
      </footer>
    </article>
  );
}
