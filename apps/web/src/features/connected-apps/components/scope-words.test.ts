import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/render';
import { describeScopes } from './scope-words';

describe('describeScopes', () => {
  it('words every permission an app asks in plain Spanish, one line per meaning', () => {
    const t = createTestI18n('es').t;
    const lines = describeScopes(
      [
        'openid',
        'fhirUser',
        'launch/patient',
        'offline_access',
        'patient/Appointment.rs',
        'patient/Appointment.read',
        'patient/Observation.rs',
        'patient/*.rs',
        'user/MedicationRequest.rs',
      ],
      t,
    );
    expect(lines).toEqual([
      'Saber quién es usted (su nombre y su identificador en la clínica)',
      'Abrir su historia clínica como paciente',
      'Seguir leyendo sus datos cuando usted no esté usando la aplicación, hasta que la desconecte',
      'Leer sus citas',
      'Leer sus constantes vitales y resultados de laboratorio',
      'Leer toda su historia clínica',
      'Leer, de los pacientes que usted atiende: recetas',
    ]);
  });

  it('shows a scope it cannot word as it is, in English too', () => {
    const t = createTestI18n('en').t;
    expect(describeScopes(['patient/Observation.rs', 'user/*.rs', 'system/*.rs'], t)).toEqual([
      'Read your vital signs and lab results',
      'Read, for the patients you care for: the whole medical record',
      'Another permission: system/*.rs',
    ]);
  });

  it('words a permission limited to a category (SMART v2 `?category=`), with or without its code system', () => {
    const es = createTestI18n('es').t;
    expect(
      describeScopes(
        [
          'patient/Observation.rs?category=vital-signs',
          'patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory',
          'user/Observation.rs?category=vital-signs',
          'patient/Observation.rs?category=imaging',
        ],
        es,
      ),
    ).toEqual([
      'Leer sus constantes vitales',
      'Leer sus resultados de laboratorio',
      'Leer, de los pacientes que usted atiende: constantes vitales',
      'Otro permiso: patient/Observation.rs?category=imaging',
    ]);
    expect(describeScopes(['patient/Observation.rs?category=laboratory'], createTestI18n('en').t)).toEqual([
      'Read your lab results',
    ]);
  });
});
