import { Text, Typography } from '@mantine/core';
import { noteSections, type VisitNote } from '@telemedicina/shared/notes';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../../lib/sanitize-html';
import { isBlankHtml } from '../soap-template';
import classes from './Notes.module.css';

/** Stored note HTML, sanitized again before it is put in the page. */
export function SafeHtml({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <Typography className={classes.readOnly}>
      <div data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}

/** The four SOAP sections, read-only (a signed note, or a draft for those who may not edit it). */
export function NoteSectionsView({ sections }: { sections: VisitNote['sections'] }) {
  const { t } = useTranslation();
  return (
    <div className={classes.sections} data-testid="note-sections-view">
      {noteSections.map((section) => (
        <section key={section} aria-labelledby={`note-view-${section}`} data-testid={`note-view-${section}`}>
          <h3 className={classes.sectionTitle} id={`note-view-${section}`}>
            {t(`notes.sections.${section}`)}
          </h3>
          {isBlankHtml(sections[section]) ? (
            <Text size="sm" className={classes.empty}>
              {t('notes.sectionEmpty')}
            </Text>
          ) : (
            <SafeHtml html={sections[section]} />
          )}
        </section>
      ))}
    </div>
  );
}
